// Grid-wide barriers the symbolic race engine recognises: the cooperative-groups grid synchronisation
// (`cooperative_groups::this_grid().sync()`, cooperative_groups/details/sync.h, sm_70 and later), which nvcc
// inlines as
//
//     bar.sync 0
//     (one thread per CTA)  atom.add.release.gpu [W], n;  spin on ld.acquire.gpu [W] until W's top bit flips
//     bar.sync 0
//
// with W in the grid workspace whose address only the driver-defined %envreg registers give (ISA 10.27).
// The top bit flips once every CTA has added (the first CTA adds 0x80000000 - (CTAs - 1), the others 1), so
// every access a thread makes before the first barrier is in causality order (ISA 8.9.5) before every access any
// thread of the grid makes after the second: the first bar.sync synchronises with the adding thread (8.9.4
// item 2), whose release pattern synchronises with the acquire of each spinning thread that reads a later value
// of W (item 4: every later add is an atomic in observation order, 8.9.2), and that thread's bar.sync with its
// CTA. Taken as given: W is the driver's, written by nothing else, and the launch is cooperative (the driver
// fails a grid sync otherwise); the race report says so.
#pragma once

#include "checker/race/cfg.hpp"

#include <cstdint>
#include <vector>

namespace ptxcheck::race {

struct GridSync {
  std::uint32_t begin = 0, end = 0;   // the first and second barrier instruction
  std::vector<std::uint32_t> counter;  // the atom and loads of W (the driver's memory, not the kernel's)
};

std::vector<GridSync> find_grid_syncs(const ptx::ir::Function& f, const Cfg& g);

// Whether the kernel reads %envreg, where a cooperative launch passes the grid workspace: the only launch under
// which it runs as written (a witness replay launches it cooperatively).
bool reads_envreg(const ptx::ir::Function& f);

}  // namespace ptxcheck::race
