// Extracts the `Examples` blocks of one chapter section (9.7 by default) from the PTX ISA text in ../shared/seeds,
// undoing the PDF conversion's line wraps; used by the spec_examples test (issue 37).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace spec {

struct ExampleBlock {
  std::string section;  // "9.7.1.1"
  std::string title;    // "Integer Arithmetic Instructions: add" (markdown marks removed)
  unsigned line = 0;    // 1-based line of the block's first code line in the spec text
  std::string code;     // the fenced block, continuation lines joined, elision lines ("...") dropped
};

// Every block that follows a line reading exactly `Examples` (blank lines between allowed) inside the body of
// section `prefix` (from the heading "<prefix>. " up to the next chapter), in document order.
std::vector<ExampleBlock> extract_examples(std::string_view spec_text, std::string_view prefix = "9.7");

// One block's raw lines made into PTX text: a line starting with a wrap mark (the arrows the PDF converter
// writes) is appended to the line before it; a line holding only dots is dropped. Exposed for the unit test.
std::string join_wrapped_lines(const std::vector<std::string>& lines);

}  // namespace spec
