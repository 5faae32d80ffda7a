#pragma once
// Linear systems of Feynman integrals (IBP, Lorentz-invariance, symmetry
// relations) as IBP generators write them, read into integrals and
// equations whose coefficients are expressions in the parameters (d, s, t,
// ...): docs/reduce.md.
//
// Two input formats, told apart by the first non-blank character:
//  * a Mathematica list (NeatIBP's IBP_all.txt, LiteRed):
//      {eq1, eq2, ...}, each equation a sum of terms coefficient*FAMILY[i1,..,in]
//  * Kira's equation files (as Ratracer's load-equations reads them): one term
//      a line, FAMILY[i1,..,in]*(coefficient), equations separated by blank lines.
// A term is a product with exactly one integral at its top level; its
// coefficient is the rest, in the grammar of hepex/io/expression.hpp
// (Mathematica's implicit multiplication by a space is accepted). Errors
// name the file, line and column (hepex::Error, before any work).

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "hepex/io/expression.hpp"

namespace hepex {
class HostThreads;
}

namespace hepex::reduce {

struct Integral {
  std::string family;
  std::vector<long> indices;
  // FAMILY[i1,i2,...] (no spaces): how tables name it.
  std::string text() const;
  // The same into `out` (its capacity reused).
  void text_into(std::string& out) const;
};

struct Term {
  std::size_t integral;     // index into System::integrals
  std::size_t coefficient;  // index into System::coefficients
};

// A distinct coefficient text and its expression (IBP systems repeat d - 4,
// s, 1 ... thousands of times: each is parsed once).
struct Coefficient {
  std::string text;
  io::Expression expression;
};

struct Equation {
  std::vector<Term> terms;
  std::size_t line = 0;  // where it starts (1-based)
};

// Where a name was met: "FILE:LINE:COL".
struct Place {
  std::size_t line = 0, column = 0;
};

struct System {
  std::string file;
  std::vector<std::string> parameters;
  std::vector<Integral> integrals;                     // in the order first met
  std::vector<Place> first_seen;                       // per integral
  std::unordered_map<std::string, std::size_t> index;  // text() -> integral
  std::vector<Coefficient> coefficients;               // distinct, in the order first met
  std::vector<Equation> equations;
};

// Reads a system from `text` (named `file` in messages) over `parameters`;
// with `threads` (may be null) a large one in parts on them (the same System
// and the same first error as on one thread).
System read_system(const std::string& text, const std::string& file,
                   const std::vector<std::string>& parameters, HostThreads* threads = nullptr);

// A list of integrals: a Mathematica list {F[..], ...} or one a line (blank
// lines and lines starting with '#' skipped), with where each was met.
struct IntegralList {
  std::vector<Integral> integrals;
  std::vector<Place> places;
};
IntegralList read_integral_list(const std::string& text, const std::string& file);

// Every integral of `list` (read from `file`) is one of the system's, else
// hepex::Error "FILE:LINE:COL: WHAT I is not in the system SYSTEM" (WHAT:
// "target", "preferred master"), before any work.
void require_in_system(const System& system, const IntegralList& list, const std::string& file,
                       const std::string& what);

// The default Laporta order, most complex first: more positive indices
// (lines), then a larger sum of positive indices (dots), then a larger sum
// of |negative indices| (numerator powers), then family name and indices.
bool more_complex(const Integral& a, const Integral& b);

}  // namespace hepex::reduce
