// Writing one fast_forms::Form (fast_path_forms.hpp): its registers, the loads of its inputs, the form and the
// stores of its results, so that each family in fast_path_forms*.cpp only says what its forms are.
#pragma once

#include "tests/unit/interp/fast_path_forms.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace fast_forms {

using ptx::interp::FastKind;

inline std::string reg_type(unsigned width) { return width == 1 ? ".pred" : ".b" + std::to_string(width); }
inline std::string hex(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}
inline std::uint64_t mask(unsigned w) { return w >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << w) - 1; }
// Integer immediates at the edges of a w-bit type: 0, 1, -1 (as a negative literal and as w one-bits), the
// least and the greatest signed value.
inline std::vector<std::string> int_immediates(unsigned w) {
  return {"0", "1", "-1", hex(mask(w)), hex(std::uint64_t(1) << (w - 1)), hex(mask(w - 1))};
}

class FormText {
 public:
  explicit FormText(FastKind expected) { f_.expected = expected; }
  // A register of `width` bits (1: a predicate) holding values drawn as `draw` at the type width `type_width`.
  std::string src(unsigned width, Draw draw = Draw::bits, unsigned type_width = 0) {
    const std::string r = fresh(width);
    const std::string in = input(draw, type_width ? type_width : width);
    if (width == 1) {
      const std::string t = fresh(32);
      line("ld.global.b32 " + t + ", [" + in + "];");
      line("setp.ne.b32 " + r + ", " + t + ", 0;");
    } else {
      line("ld.global." + reg_type(width).substr(1) + " " + r + ", [" + in + "];");
    }
    return r;
  }
  // Element .y of a .v2 register of `width` bits (element .x holds other values).
  std::string src_component(unsigned width, Draw draw = Draw::bits, unsigned type_width = 0) {
    const std::string v = vector_register(width);
    line("ld.global.b" + std::to_string(width) + " " + v + ".y, [" + input(draw, type_width ? type_width : width) + "];");
    return v + ".y";
  }
  // The form's result: a register of `width` bits stored after the form.
  std::string dst(unsigned width) {
    const std::string r = fresh(width);
    results_.push_back({r, width});
    return r;
  }
  // Element .y of a .v2 register, element .x set before the form: both are stored (the form writes only .y).
  std::string dst_component(unsigned width) {
    const std::string v = vector_register(width);
    results_.push_back({v + ".x", width});
    results_.push_back({v + ".y", width});
    return v + ".y";
  }
  std::string reg(unsigned width) { return fresh(width); }  // declared only
  // An input slot of random bytes for memory forms to access: its index, and the address `off` bytes into it.
  unsigned memory_slot() {
    f_.inputs.push_back({Draw::bits, 64});
    return static_cast<unsigned>(f_.inputs.size() - 1);
  }
  static std::string input_at(unsigned slot, unsigned off) { return "IN{" + std::to_string(slot) + ":" + std::to_string(off) + "}"; }
  std::string memory_input(unsigned off) { return input_at(memory_slot(), off); }
  void line(const std::string& l) { f_.lines.push_back(l); }
  void decl(const std::string& d) { f_.decls.push_back(d); }
  void form(const std::string& instruction) {
    f_.name = instruction;
    line("=> " + instruction);
  }
  Form done(bool runnable = true) {
    for (const auto& [r, w] : results_) {
      const std::string out = "[OUT{" + std::to_string(f_.outputs++) + "}]";
      if (w == 1) {
        const std::string t = fresh(32);
        line("selp.b32 " + t + ", 1, 0, " + r + ";");
        line("st.global.b32 " + out + ", " + t + ";");
      } else {
        line("st.global.b" + std::to_string(w) + " " + out + ", " + r + ";");
      }
    }
    f_.runnable = runnable;
    return f_;
  }
  // A form that is one instruction over registers and immediates made by `src`/`dst`.
  Form one(const std::string& instruction, bool runnable = true) {
    form(instruction);
    return done(runnable);
  }

 private:
  std::string fresh(unsigned width) {
    const std::string r = "$" + std::to_string(next_++);
    decl(".reg " + reg_type(width) + " " + r + ";");
    return r;
  }
  std::string vector_register(unsigned width) {
    const std::string v = "$v" + std::to_string(next_++);
    decl(".reg .v2 .b" + std::to_string(width) + " " + v + ";");
    line("ld.global.b" + std::to_string(width) + " " + v + ".x, [" + input(Draw::bits, width) + "];");
    return v;
  }
  std::string input(Draw draw, unsigned width) {
    f_.inputs.push_back({draw, width});
    return "IN{" + std::to_string(f_.inputs.size() - 1) + "}";
  }
  Form f_;
  unsigned next_ = 0;
  struct Result {
    std::string reg;
    unsigned width;
  };
  std::vector<Result> results_;
};

// The form families (fast_path_forms*.cpp).
void integer_arithmetic_forms(std::vector<Form>& out);
void logic_and_shift_forms(std::vector<Form>& out);
void move_select_compare_forms(std::vector<Form>& out);
void conversion_forms(std::vector<Form>& out);
void float_forms(std::vector<Form>& out);
void memory_forms(std::vector<Form>& out);

}  // namespace fast_forms
