#include "hepex/reconstruct/black_box.hpp"

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
  for (const auto& e : expressions) {
    if (e.variables() != variables) {
      throw Error("expression_black_box: an expression over " + std::to_string(e.variables()) +
                  " variables in a black box of " + std::to_string(variables));
    }
  }
  using Functor = io::ExpressionFunctor<DeviceMemory>;
  const std::size_t functions = expressions.size();
  return std::make_unique<DeviceBlackBox<DeviceSpace, Functor>>(
      variables, functions, [expressions = std::move(expressions)](const field::Zp64& f) {
        return Functor{f, io::make_program_table<DeviceMemory>(expressions, f)};
      });
}

}  // namespace hepex::reconstruct
