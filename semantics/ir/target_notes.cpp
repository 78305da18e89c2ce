#include "semantics/ir/target_notes.hpp"

#include "semantics/ir/types.hpp"

#include <algorithm>
#include <charconv>

namespace ptx::ir {
namespace {

enum class Scope { section, form, word };
enum class Kind { introduced, target, removed };

struct Section {
  std::string_view number, heads, types;
};
struct Rule {
  std::string_view section;
  Scope scope;
  Kind kind;
  std::string_view words, requirement;
};

constexpr Section kSections[] = {
#define PTX_TARGET_SECTION(number, heads, types) {number, heads, types},
#define PTX_TARGET_RULE(section, scope, kind, words, requirement)
#define PTX_TARGET_STRING(name, version)
#include "semantics/ir/target_notes.def"
#undef PTX_TARGET_STRING
#undef PTX_TARGET_RULE
#undef PTX_TARGET_SECTION
};
constexpr Rule kRules[] = {
#define PTX_TARGET_SECTION(number, heads, types)
#define PTX_TARGET_RULE(section, scope, kind, words, requirement) {section, Scope::scope, Kind::kind, words, requirement},
#define PTX_TARGET_STRING(name, version)
#include "semantics/ir/target_notes.def"
#undef PTX_TARGET_STRING
#undef PTX_TARGET_RULE
#undef PTX_TARGET_SECTION
};
// 11.1.2's "Target string sm_XX introduced in PTX ISA version V".
struct TargetString {
  std::string_view name, version;
};
constexpr TargetString kTargetStrings[] = {
#define PTX_TARGET_SECTION(number, heads, types)
#define PTX_TARGET_RULE(section, scope, kind, words, requirement)
#define PTX_TARGET_STRING(name, version) {name, version},
#include "semantics/ir/target_notes.def"
#undef PTX_TARGET_STRING
#undef PTX_TARGET_RULE
#undef PTX_TARGET_SECTION
};

std::vector<std::string_view> split(std::string_view s, char by) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0; at <= s.size();) {
    const std::size_t end = std::min(s.find(by, at), s.size());
    if (end > at) out.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// A form "add u16x2|min relu s32|div rz/rm/rp f64": the opcode, then words the instruction has one of each, in that
// order (`cvt.bf16.f32` is not `cvt.f32.bf16`: the form's words are in its syntax's order, dtype before atype).
bool matches_form(const Instruction& in, std::string_view form) {
  for (std::string_view alternative : split(form, '|')) {
    const auto slots = split(alternative, ' ');
    if (slots.empty() || slots[0] != opcode_name(in.op)) continue;
    std::size_t next = 0;  // the first instruction word a slot may match
    bool all = true;
    for (std::size_t k = 1; k < slots.size() && all; ++k) {
      const auto options = split(slots[k], '/');
      auto at = std::find_if(in.q.words.begin() + static_cast<std::ptrdiff_t>(next), in.q.words.end(), [&](const std::string& w) {
        return std::find(options.begin(), options.end(), w) != options.end();
      });
      all = at != in.q.words.end();
      if (all) next = static_cast<std::size_t>(at - in.q.words.begin()) + 1;
    }
    if (all) return true;
  }
  return false;
}

// A qualifier the text names: `.b128` the word itself, `.kind` any `.kind::...`, `::cluster` any `...::cluster`.
bool names_word(std::string_view trigger, std::string_view w) {
  if (trigger.starts_with("::")) return w.size() > trigger.size() && w.ends_with(trigger);
  trigger.remove_prefix(trigger.starts_with('.') ? 1 : 0);
  return w == trigger || (w.starts_with(trigger) && w.substr(trigger.size()).starts_with("::"));
}

bool matches_words(const Instruction& in, std::string_view triggers) {
  for (std::string_view t : split(triggers, ' '))
    for (const auto& w : in.q.words)
      if (names_word(t, w)) return true;
  return false;
}

// The sections an instruction belongs to: those of its most specific head (`cp.async.bulk.tensor` over `cp.async`,
// `shfl.sync` over `shfl`), whose form and word rules apply to it; and of those the one whose syntax lists its types
// (`add.f32` is 9.7.3.3's, not 9.7.1.1's), whose rules for the whole section apply when there is exactly one.
struct Membership {
  std::vector<const Section*> by_head;
  const Section* by_type = nullptr;
};

Membership sections_of(const Instruction& in) {
  Membership m;
  std::size_t best_words = 0;
  for (const Section& s : kSections)
    for (std::string_view head : split(s.heads, '|')) {
      const auto words = split(head, ' ');
      if (words.empty() || words[0] != opcode_name(in.op)) continue;
      // a head word names its `::` sub-qualified forms too: "tcgen05.wait" heads `tcgen05.wait::ld` (9.7.16.8.5)
      if (!std::all_of(words.begin() + 1, words.end(), [&](std::string_view w) {
            return std::any_of(in.q.words.begin(), in.q.words.end(), [&](const std::string& iw) { return names_word(w, iw); });
          }))
        continue;
      if (words.size() > best_words) m.by_head.clear(), best_words = words.size();
      if (words.size() == best_words && std::find(m.by_head.begin(), m.by_head.end(), &s) == m.by_head.end()) m.by_head.push_back(&s);
    }
  std::size_t typed = 0;
  for (const Section* s : m.by_head) {
    const auto types = split(s->types, ' ');
    const bool fits = std::all_of(in.q.words.begin(), in.q.words.end(), [&](const std::string& w) {
      return !scalar_type_from_name(w) || types.empty() || std::find(types.begin(), types.end(), w) != types.end();
    });
    if (fits) ++typed, m.by_type = s;
  }
  if (typed != 1) m.by_type = nullptr;
  return m;
}

unsigned version_of(std::string_view v) {
  unsigned major = 0, minor = 0;
  const auto dot = v.find('.');
  std::from_chars(v.data(), v.data() + dot, major);
  std::from_chars(v.data() + dot + 1, v.data() + v.size(), minor);
  return major * 10 + minor;
}

std::string version_text(unsigned v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); }

std::string arch_text(const TargetArch& t) {
  return "sm_" + std::to_string(t.number) + (t.suffix == ' ' ? "" : std::string(1, t.suffix));
}

// How the table's requirement reads to a user: ">=sm_80" as "sm_80 or higher", "sm_100f+" as "sm_100f or higher in
// the same family".
std::string requirement_text(std::string_view r) {
  std::string out;
  for (std::string_view entry : split(r, ',')) {
    if (!out.empty()) out += ", ";
    if (entry.starts_with(">=")) out += std::string(entry.substr(2)) + " or higher";
    else if (entry.ends_with('+')) out += std::string(entry.substr(0, entry.size() - 1)) + " or higher in the same family";
    else out += entry;
  }
  return out;
}

bool applies(const Rule& r, const Instruction& in, const Membership& m) {
  const bool by_head = std::any_of(m.by_head.begin(), m.by_head.end(), [&](const Section* s) { return s->number == r.section; });
  switch (r.scope) {
    case Scope::form: return by_head && matches_form(in, r.words);
    case Scope::word: return by_head && matches_words(in, r.words);
    case Scope::section: return m.by_type && m.by_type->number == r.section;
  }
  return false;
}

std::string subject(const Rule& r, const Instruction& in) {
  const std::string text = "'" + opcode_text(in) + "'";
  if (r.scope != Scope::word) return text;
  for (std::string_view t : split(r.words, ' '))
    for (const auto& w : in.q.words)
      if (names_word(t, w)) return "'." + w + "' in " + text;
  return text;
}

// The architecture of a target string: "90a" of sm_90a and of compute_90a ("Targets of the form compute_xx are also
// accepted as synonyms for sm_xx targets", 11.1.2).
std::optional<std::string_view> architecture_of(std::string_view name) {
  if (name.starts_with("compute_")) return name.substr(8);
  if (name.starts_with("sm_")) return name.substr(3);
  return std::nullopt;
}

}  // namespace

std::optional<TargetArch> target_arch(std::string_view target) {
  const auto architecture = architecture_of(target);
  if (!architecture) return std::nullopt;
  const std::string_view name = *architecture;
  TargetArch t;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), t.number);
  if (ec != std::errc() || t.number == 0) return std::nullopt;
  const std::string_view rest(end, static_cast<std::size_t>(name.data() + name.size() - end));
  if (rest == "a" || rest == "f") t.suffix = rest[0];
  else if (!rest.empty()) return std::nullopt;
  if (t.number == 101) t.number = 110;  // "Targets sm_{101, 101f, 101a} are renamed to targets sm_{110, 110f, 110a}"
  return t;
}

std::optional<std::string> target_string_finding(std::string_view name, unsigned version) {
  const auto architecture = architecture_of(name);
  if (version == 0 || !architecture) return std::nullopt;
  for (const auto& t : kTargetStrings)
    if (architecture_of(t.name) == architecture && version < version_of(t.version))
      return "'.target " + std::string(name) + "' requires PTX ISA version " + std::string(t.version) +
             " or later (ISA 11.1.2, PTX ISA Notes); the module declares .version " + version_text(version);
  return std::nullopt;
}

bool target_satisfies(const TargetArch& target, std::string_view requirement) {
  for (std::string_view entry : split(requirement, ',')) {
    if (entry.starts_with(">=")) {
      const auto need = target_arch(entry.substr(2));
      if (need && target.number >= need->number) return true;
    } else if (entry.ends_with('+')) {
      // Table 62: the sm_10x family is sm_100 and sm_103, sm_11x sm_110 (and sm_101), sm_12x sm_120 and sm_121.
      const auto need = target_arch(entry.substr(0, entry.size() - 1));
      if (need && target.suffix != ' ' && target.number / 10 == need->number / 10 && target.number >= need->number) return true;
    } else {
      const auto need = target_arch(entry);
      if (need && need->number == target.number && need->suffix == target.suffix) return true;
    }
  }
  return false;
}

std::vector<TargetNoteFinding> target_note_findings(const Instruction& in, unsigned version, const std::optional<TargetArch>& target) {
  std::vector<TargetNoteFinding> out;
  const Membership m = sections_of(in);
  for (const Rule& r : kRules) {
    if (!applies(r, in, m)) continue;
    const std::string where = " (ISA " + std::string(r.section) + ", ";
    if (r.kind == Kind::introduced && version && version < version_of(r.requirement)) {
      out.push_back({false, subject(r, in) + " requires PTX ISA version " + std::string(r.requirement) + " or later" + where +
                                "PTX ISA Notes); the module declares .version " + version_text(version)});
    } else if (r.kind == Kind::target && target && !target_satisfies(*target, r.requirement)) {
      out.push_back({false, subject(r, in) + " requires .target " + requirement_text(r.requirement) + where +
                                "Target ISA Notes); the module's target is " + arch_text(*target)});
    } else if (r.kind == Kind::removed && target && version) {
      // ">=sm_70@6.4": not supported on that target or higher from that PTX ISA version on.
      const auto at = r.requirement.find('@');
      if (target_satisfies(*target, r.requirement.substr(0, at)) && version >= version_of(r.requirement.substr(at + 1)))
        out.push_back({true, subject(r, in) + " is not supported on .target " + requirement_text(r.requirement.substr(0, at)) +
                                 " from PTX ISA version " + std::string(r.requirement.substr(at + 1)) + where +
                                 "Target ISA Notes); it runs as the deprecated instruction the text defines"});
    }
  }
  return out;
}

}  // namespace ptx::ir
