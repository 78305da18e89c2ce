// `ptxcheck abi` as a library: matches each source atomic operation to the PTX instructions attributed to
// its line and judges the sequence against the chapter-4 table. A report is data (JSON) first.
#pragma once

#include "checker/abi/calling.hpp"
#include "checker/abi/ptx_ops.hpp"
#include "checker/abi/source_ops.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ptxcheck::abi {

enum class Verdict : std::uint8_t {
  ok,           // a listed alternative, exactly
  stronger,     // a listed alternative with stronger orders or wider scopes (chapter 4, first note)
  wrong,        // instructions found, none of the alternatives (even strengthened) matches
  missing,      // no ordering instruction at all for the operation
  unknown,      // the sequence lies in a function nvcc did not inline (the order may be chosen at run time)
  no_row,       // the table has no row for this operation and order
};
const char* verdict_name(Verdict v);

struct OpResult {
  SourceOp op;
  std::vector<PtxOp> ptx;  // the ordering instructions matched to it (weak accesses when missing)
  Verdict verdict = Verdict::missing;
  std::string table;       // the allowed alternatives, rendered at the operation's scope
  std::string why;
};

struct AbiReport {
  std::string source, config;  // the .cu file; the configuration (arch, flags) it was compiled with
  std::vector<OpResult> results;
  std::vector<PtxOp> unmatched;  // ordering instructions of the user's file on lines with no source operation
  std::vector<std::string> notes;
  CallingReport calling;  // chapters 1-3: prototypes, calls and system calls of the same PTX
  // 0 all OK; 1 a mapping the table does not allow, or a calling-convention violation; 2 bad input (no row);
  // 3 unknown or unmatched PTX.
  int exit_code() const;
};

AbiReport check_abi(const std::string& source, const ScanResult& scan, const PtxOps& ptx);

nlohmann::json to_json(const AbiReport& r);
// One line per source operation: `file:line:col  atomic_load(seq_cst, device)  ->  fence.sc.gpu; ld.acquire.gpu.b32  OK`.
std::string to_text(const AbiReport& r);

}  // namespace ptxcheck::abi
