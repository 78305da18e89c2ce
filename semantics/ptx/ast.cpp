// Structural equality of the PTX AST (positions ignored): used by the parse -> print -> parse test.
#include "semantics/ptx/ast.hpp"

#include <boost/variant/apply_visitor.hpp>
#include <boost/variant/get.hpp>

namespace ptx::ast {
namespace {
template <class T> const T& unwrap(const T& value) { return value; }
template <class T> const T& unwrap(const x3::forward_ast<T>& value) { return value.get(); }

template <class Variant> bool variant_equal(const Variant& a, const Variant& b) {
  if (a.get().which() != b.get().which()) return false;
  return boost::apply_visitor(
      [&](const auto& x) -> bool {
        using T = std::decay_t<decltype(x)>;
        return unwrap(x) == unwrap(boost::get<T>(b.get()));
      },
      a.get());
}
}  // namespace

bool Address::operator==(const Address& o) const { return base == o.base && offset == o.offset && extra == o.extra; }
bool Vector::operator==(const Vector& o) const { return elements == o.elements; }
bool ParenList::operator==(const ParenList& o) const { return elements == o.elements; }
bool Operand::operator==(const Operand& o) const { return variant_equal(*this, o); }
bool Statement::operator==(const Statement& o) const { return variant_equal(*this, o); }
bool TopLevel::operator==(const TopLevel& o) const { return variant_equal(*this, o); }
}  // namespace ptx::ast
