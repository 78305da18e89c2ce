// `.test` templates: a body, a line `$$`, then one row per instance whose `|`-separated cells fill `$0`,
// `$1`, ... of the body (the format's tool, src/test_to_alloy.py, substitutes text the same way). Also the
// public entry points of the reader (path handling, instance naming).
#include "litmus/parse/nvtest.hpp"
#include "litmus/parse/nvtest_detail.hpp"
#include "semantics/support/files.hpp"

#include <cctype>

namespace ptxcheck::litmus {
namespace nvtest {
namespace {
bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// [b, e) without leading and trailing blanks.
std::pair<std::size_t, std::size_t> trim(const std::string& s, std::size_t b, std::size_t e) {
  while (b < e && blank(s[b])) ++b;
  while (e > b && blank(s[e - 1])) --e;
  return {b, e};
}
}  // namespace

std::optional<Template> find_template(const std::string& text) {
  std::optional<Template> t;
  for (std::size_t b = 0; b < text.size();) {
    std::size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    auto [tb, te] = trim(text, b, e);
    if (!t && te - tb == 2 && text.compare(tb, 2, "$$") == 0) {
      t = Template{b, {}};
    } else if (t && tb < te && text[tb] != '#') {
      t->rows.push_back({tb, te});  // a row; blank lines and `#` comment lines are no instance
    }
    b = e + 1;
  }
  return t;
}

std::optional<Expanded> expand(const std::string& text, const std::string& file, std::size_t instance,
                               std::vector<Diagnostic>& diags) {
  Expanded out;
  auto tpl = find_template(text);
  if (!tpl) {
    if (instance != 0) {
      diags.push_back(make_diagnostic(text, file, 0, "instance #" + std::to_string(instance) + " asked of a file without a template (`$$` line)"));
      return std::nullopt;
    }
    out.text = text;
    for (std::size_t i = 0; i <= text.size(); ++i) out.origin.push_back(i);
    return out;
  }
  if (instance == 0 || instance > tpl->rows.size()) {
    diags.push_back(make_diagnostic(text, file, tpl->body_end, "the template has " + std::to_string(tpl->rows.size()) +
                                                                   " instances; name one as FILE#k, k from 1"));
    return std::nullopt;
  }
  // The row's cells, each trimmed.
  auto [rb, re] = tpl->rows[instance - 1];
  std::vector<std::pair<std::size_t, std::size_t>> cells;
  for (std::size_t b = rb;;) {
    std::size_t e = text.find('|', b);
    if (e == std::string::npos || e > re) e = re;
    cells.push_back(trim(text, b, e));
    if (e == re) break;
    b = e + 1;
  }
  for (std::size_t i = 0; i < tpl->body_end; ++i) {
    if (text[i] != '$' || i + 1 >= tpl->body_end || !std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
      out.text += text[i];
      out.origin.push_back(i);
      continue;
    }
    // `$k`, all of its digits (the format's tool replaces `$1` inside `$10`; rows here have at most 10 cells).
    std::size_t j = i + 1, k = 0;
    while (j < tpl->body_end && std::isdigit(static_cast<unsigned char>(text[j]))) k = k * 10 + static_cast<std::size_t>(text[j++] - '0');
    if (k >= cells.size()) {
      diags.push_back(make_diagnostic(text, file, i, "template parameter $" + std::to_string(k) + " has no cell in instance #" +
                                                         std::to_string(instance) + " (its row has " + std::to_string(cells.size()) + ")"));
      return std::nullopt;
    }
    for (std::size_t c = cells[k].first; c < cells[k].second; ++c) {
      out.text += text[c];
      out.origin.push_back(c);
    }
    i = j - 1;
  }
  out.origin.push_back(tpl->body_end);
  return out;
}
}  // namespace nvtest

namespace {
// `FILE.test` -> (FILE.test, ""); `FILE.test#k` -> (FILE.test, "k"); anything else -> ("", "").
std::pair<std::string, std::string> split_instance(const std::string& path) {
  if (path.size() > 5 && path.ends_with(".test")) return {path, ""};
  auto hash = path.rfind('#');
  if (hash == std::string::npos || hash <= 5 || path.compare(hash - 5, 5, ".test") != 0) return {"", ""};
  return {path.substr(0, hash), path.substr(hash + 1)};
}
}  // namespace

bool is_nvtest_path(const std::string& path) { return !split_instance(path).first.empty(); }

std::optional<std::size_t> nvtest_instances(const std::string& text) {
  auto t = nvtest::find_template(text);
  if (!t) return std::nullopt;
  return t->rows.size();
}

std::optional<Test> parse_nvtest(const std::string& text, const std::string& file, std::size_t instance,
                                 std::vector<Diagnostic>& diags) {
  auto e = nvtest::expand(text, file, instance, diags);
  if (!e) return std::nullopt;
  auto t = nvtest::parse_expanded(*e, text, file, diags);
  if (!t) return std::nullopt;
  auto slash = file.find_last_of('/');
  t->name = (slash == std::string::npos ? file : file.substr(slash + 1)) + (instance ? "#" + std::to_string(instance) : "");
  return t;
}

std::optional<Test> load_nvtest(const std::string& path, std::vector<Diagnostic>& diags) {
  auto [file, k] = split_instance(path);
  std::size_t instance = 0;
  if (file.empty()) file = path;  // not named like a .test file: read it whole
  if (!k.empty() || path != file) {
    if (k.empty() || k.size() > 9 || k.find_first_not_of("0123456789") != std::string::npos || std::stoul(k) == 0) {
      diags.push_back(Diagnostic{{path, 0, 0}, "expected FILE.test#k with k a positive instance number", "", "error"});
      return std::nullopt;
    }
    instance = std::stoul(k);
  }
  auto text = read_text_file(file);
  if (!text) {
    diags.push_back(Diagnostic{{file, 0, 0}, "cannot read file", "", "error"});
    return std::nullopt;
  }
  return parse_nvtest(*text, file, instance, diags);
}

}  // namespace ptxcheck::litmus
