#include "hepex/reconstruct/black_box.hpp"

#include "hepex/reconstruct/detail/expression_box.hpp"

namespace hepex::reconstruct {

void HostBlackBox::evaluate(const field::Zp64& f, std::size_t count,
                            const std::vector<std::uint64_t>& points,
                            std::vector<std::uint64_t>& values,
                            std::vector<std::uint8_t>& ok) const {
  values.assign(count * functions_, 0);
  ok.assign(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    ok[i] = eval_(f, points.data() + i * variables_, values.data() + i * functions_) ? 1 : 0;
  }
}

std::unique_ptr<BlackBox> expression_black_box(std::vector<io::Expression> expressions,
                                               std::size_t variables) {
  return detail::expression_black_box(std::move(expressions), variables, {});
}

namespace detail {

std::unique_ptr<BlackBox> expression_black_box(std::vector<io::Expression> expressions,
                                               std::size_t variables,
                                               const CompileOptions& options) {
  for (const auto& e : expressions) {
    if (e.variables() != variables) {
      throw Error("expression_black_box: an expression over " + std::to_string(e.variables()) +
                  " variables in a black box of " + std::to_string(variables));
    }
  }
  using Functor = ExpressionBoxFunctor<DeviceMemory>;
  const std::size_t functions = expressions.size();
  CompiledExpressions compiled(expressions, variables, options);
  return std::make_unique<DeviceBlackBox<DeviceSpace, Functor>>(
      variables, functions,
      [expressions = std::move(expressions), compiled = std::move(compiled)](const field::Zp64& f) {
        return Functor{{f, io::make_program_table<DeviceMemory>(expressions, f)},
                       make_compiled_table<DeviceMemory>(compiled, f)};
      });
}

}  // namespace detail

}  // namespace hepex::reconstruct
