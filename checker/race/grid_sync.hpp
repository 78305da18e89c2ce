// Grid-wide barriers the symbolic race engine recognises: the cooperative-groups grid synchronisation
// (`cooperative_groups::this_grid().sync()`, cooperative_groups/details/sync.h), which nvcc inlines as
//
//     bar.sync 0
//     (one thread per CTA)  atom.add.release.gpu [W], n;  spin on ld.acquire.gpu [W] until W's top bit flips
//     bar.sync 0
//
// (older CUDA: __threadfence(), a relaxed atomicAdd, a volatile spin, __threadfence()), with W in the grid
// workspace whose address only the driver-defined %envreg registers give (ISA 10.27).
//
// This file recognises the idiom's instructions only: two CTA barriers, every path into the code between them
// through the first, and between them nothing but register work, fences, one atom.add of W and loads of W in a loop.
// Whether they order anything, their semantics, scopes and fences, the barriers' part (8.9.4 item 2) and the
// chain from one CTA's add to another's acquire (8.8, 8.9.2), is the memory model's answer (grid_sync_model.hpp),
// asked before a grid sync is taken as an ordering (check_grid_sync.cpp).
//
// Taken as given, not checked (the race report says so): W is the driver's, written by nothing else; the launch is
// cooperative (the driver fails a grid sync otherwise); one thread per CTA takes the add and the spin's exit test is
// "W's top bit differs from what the add returned", the first CTA adding 0x80000000 - (CTAs - 1) and the others 1
// (sync_grids; the model's test computes that exit test itself rather than reading the kernel's); and two CTAs stand
// for N (grid_sync_model.hpp says why).
#pragma once

#include "checker/race/cfg.hpp"

#include <cstdint>
#include <vector>

namespace ptxcheck::race {

struct GridSync {
  std::uint32_t begin = 0, end = 0;   // the first and second barrier instruction
  std::uint32_t add = 0;               // the atom.add of W
  std::vector<std::uint32_t> counter;  // the atom and loads of W (the driver's memory, not the kernel's)
};

std::vector<GridSync> find_grid_syncs(const ptx::ir::Function& f, const Cfg& g);

// Whether the kernel reads %envreg, where a cooperative launch passes the grid workspace: the only launch under
// which it runs as written (a witness replay launches it cooperatively).
bool reads_envreg(const ptx::ir::Function& f);

}  // namespace ptxcheck::race
