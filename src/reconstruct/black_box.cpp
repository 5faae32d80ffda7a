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

namespace {

template <class ExecSpace>
std::unique_ptr<BlackBox> expression_box_in(std::vector<io::Expression> expressions,
                                            std::size_t variables, const CompileOptions& options) {
  for (const auto& e : expressions) {
    if (e.variables() != variables) {
      throw Error("expression_black_box: an expression over " + std::to_string(e.variables()) +
                  " variables in a black box of " + std::to_string(variables));
    }
  }
  using Memory = typename ExecSpace::memory_space;
  using Functor = ExpressionBoxFunctor<Memory>;
  const std::size_t functions = expressions.size();
  CompiledExpressions compiled(expressions, variables, options);
  return std::make_unique<DeviceBlackBox<ExecSpace, Functor>>(
      variables, functions,
      [expressions = std::move(expressions), compiled = std::move(compiled)](const field::Zp64& f) {
        return Functor{{f, io::make_program_table<Memory>(expressions, f)},
                       make_compiled_table<Memory>(compiled, f)};
      });
}

}  // namespace

std::unique_ptr<BlackBox> expression_black_box(std::vector<io::Expression> expressions,
                                               std::size_t variables,
                                               const CompileOptions& options) {
  return expression_box_in<DeviceSpace>(std::move(expressions), variables, options);
}

}  // namespace detail

std::unique_ptr<BlackBox> host_expression_black_box(std::vector<io::Expression> expressions,
                                                    std::size_t variables) {
  return detail::expression_box_in<HostSpace>(std::move(expressions), variables, {});
}

}  // namespace hepex::reconstruct
