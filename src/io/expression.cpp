#include "hepex/io/expression.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "hepex/core/error.hpp"

namespace hepex::io {

namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// How a token looks in an error message.
std::string describe(const std::string& text, std::size_t pos) {
  if (pos >= text.size()) return "the end of the expression";
  const char c = text[pos];
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  return "byte " + std::to_string(static_cast<unsigned>(static_cast<unsigned char>(c)));
}

// Parentheses and unary signs nested deeper than this are refused.
constexpr std::size_t max_nesting = 1000;

}  // namespace

// Recursive descent over the grammar in expression.hpp, emitting postfix code.
class ExpressionParser {
 public:
  ExpressionParser(const std::string& text, const std::vector<std::string>& variables)
      : text_(text), variables_(variables) {
    result_.variables_ = variables.size();
  }

  Expression run() {
    skip_space();
    if (pos_ == text_.size()) fail("the expression is empty");
    sum();
    skip_space();
    if (pos_ != text_.size()) {
      fail("expected an operator (+ - * / ^) or the end, found " + describe(text_, pos_));
    }
    return std::move(result_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error("column " + std::to_string(pos_ + 1) + ": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  // Appends one instruction and tracks the stack depth it leaves.
  void emit(Op op, std::uint64_t operand = 0) {
    result_.code_.push_back({op, operand});
    if (op == Op::constant || op == Op::variable) {
      if (++depth_ > max_stack_depth) {
        fail("the expression nests too deeply (needs more than " + std::to_string(max_stack_depth) +
             " stack slots); expand or split it");
      }
      result_.stack_depth_ = std::max(result_.stack_depth_, depth_);
    } else if (op == Op::add || op == Op::sub || op == Op::mul || op == Op::div) {
      --depth_;
    }
  }

  void sum() {
    product();
    for (skip_space(); pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-');
         skip_space()) {
      const Op op = text_[pos_++] == '+' ? Op::add : Op::sub;
      product();
      emit(op);
    }
  }

  void product() {
    unary();
    for (skip_space(); pos_ < text_.size() && (text_[pos_] == '*' || text_[pos_] == '/');
         skip_space()) {
      const Op op = text_[pos_++] == '*' ? Op::mul : Op::div;
      unary();
      emit(op);
    }
  }

  // The recursion of the parser: bounded, so that no input overflows the
  // call stack.
  void nest() {
    if (++nesting_ > max_nesting) {
      fail("the expression nests more than " + std::to_string(max_nesting) +
           " parentheses or signs deep");
    }
  }

  void unary() {
    skip_space();
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      const bool negate = text_[pos_++] == '-';
      nest();
      unary();
      --nesting_;
      if (negate) emit(Op::neg);
      return;
    }
    power();
  }

  // '^', or '**' as Python, sympy and Fortran write it: consumed if there.
  bool power_sign() {
    if (pos_ < text_.size() && text_[pos_] == '^') {
      ++pos_;
      return true;
    }
    if (pos_ + 1 < text_.size() && text_[pos_] == '*' && text_[pos_ + 1] == '*') {
      pos_ += 2;
      return true;
    }
    return false;
  }

  void power() {
    primary();
    skip_space();
    if (!power_sign()) return;
    skip_space();
    const bool parenthesised = pos_ < text_.size() && text_[pos_] == '(';
    if (parenthesised) {
      ++pos_;
      skip_space();
    }
    bool negative = false;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      negative = text_[pos_++] == '-';
      skip_space();
    }
    if (pos_ >= text_.size() || !is_digit(text_[pos_])) {
      fail("expected an integer exponent after '^', found " + describe(text_, pos_));
    }
    const std::size_t start = pos_;
    const mpz_class e(digits(), 10);
    if (e > std::numeric_limits<std::int64_t>::max()) {
      pos_ = start;
      fail("the exponent " + e.get_str() + " does not fit in 63 bits");
    }
    if (parenthesised) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ')') {
        fail("expected ')' to close the exponent, found " + describe(text_, pos_));
      }
      ++pos_;
    }
    skip_space();
    const std::size_t before = pos_;
    if (power_sign()) {
      pos_ = before;
      fail("chained exponents are ambiguous: write (a^b)^c");
    }
    emit(negative ? Op::pow_inverse : Op::pow, e.get_ui());
  }

  void primary() {
    skip_space();
    if (pos_ >= text_.size()) fail("expected a number, a variable or '(', found the end");
    const char c = text_[pos_];
    if (is_digit(c)) {
      result_.constants_.emplace_back(digits(), 10);
      emit(Op::constant, result_.constants_.size() - 1);
    } else if (is_name_start(c)) {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
      const std::string name = text_.substr(start, pos_ - start);
      const auto it = std::find(variables_.begin(), variables_.end(), name);
      if (it == variables_.end()) {
        pos_ = start;
        fail("unknown variable '" + name + "' (declare it with --vars)");
      }
      emit(Op::variable, static_cast<std::uint64_t>(it - variables_.begin()));
    } else if (c == '(') {
      ++pos_;
      nest();
      sum();
      --nesting_;
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ')') {
        fail("expected ')', found " + describe(text_, pos_));
      }
      ++pos_;
    } else {
      fail("expected a number, a variable or '(', found " + describe(text_, pos_));
    }
  }

  // The decimal digits at pos_ (at least one).
  std::string digits() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    if (pos_ < text_.size() && is_name_start(text_[pos_])) {
      fail("a number followed by a name: write '*' for a product");
    }
    return text_.substr(start, pos_ - start);
  }

  const std::string& text_;
  const std::vector<std::string>& variables_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;
  std::size_t nesting_ = 0;
  Expression result_;
};

Expression Expression::parse(const std::string& text, const std::vector<std::string>& variables) {
  return ExpressionParser(text, variables).run();
}

std::vector<std::string> parse_variable_list(const std::string& text, const std::string& option) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string name =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty() || !is_name_start(name[0]) ||
        !std::all_of(name.begin(), name.end(), is_name_char)) {
      throw Error(option + ": '" + name +
                  "' is not a variable name (letters, digits, '_'; not starting with a digit)");
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      throw Error(option + ": the variable '" + name + "' is listed twice");
    }
    names.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return names;
}

}  // namespace hepex::io
