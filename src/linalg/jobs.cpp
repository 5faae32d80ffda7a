#include "hepex/linalg/jobs.hpp"

#include <Kokkos_Core.hpp>
#include <sstream>

#include "hepex/core/error.hpp"
#include "hepex/core/text_stream.hpp"
#include "hepex/distributed/checkpoint.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/io/matrix_file.hpp"
#include "hepex/linalg/rref.hpp"

namespace hepex::linalg {

namespace {

template <class F>
std::string field_identity(const F& f) {
  std::ostringstream text;
  if constexpr (F::is_exact) {
    text << "Z/" << f.modulus();
  } else {
    text << "floating " << sizeof(typename F::value_type) << ' ' << std::hexfloat << f.tolerance();
  }
  return text.str();
}

constexpr const char* trailer_tag = "\nhepex-rref ";

}  // namespace

template <class F>
RrefJobs<F>::RrefJobs(F field, std::vector<MatrixInput> inputs, Place place, MatrixFormat format,
                      io::ReadLimits limits)
    : field_(field), inputs_(std::move(inputs)), place_(place), format_(format), limits_(limits) {}

template <class F>
std::string RrefJobs<F>::identity() const {
  std::ostringstream identity;
  identity << "rref\n" << field_identity(field_) << " format " << static_cast<int>(format_) << '\n';
  for (const auto& input : inputs_) {
    if (input.is_text) {
      identity << "text " << input.text.size() << '\n' << input.text << '\n';
    } else {
      identity << "file " << distributed::file_fingerprint(input.name) << '\n';
    }
  }
  return identity.str();
}

template <class F>
std::vector<RrefJobResult> RrefJobs<F>::run(const std::vector<std::size_t>& jobs) {
  std::vector<RrefJobResult> out;
  for (const std::size_t j : jobs) {
    auto a = io::read_matrix(inputs_.at(j), field_, limits_);
    Kokkos::Timer timer;
    const auto r = linalg::rref(field_, a, place_);
    RrefJobResult result;
    result.seconds = timer.seconds();
    result.rows = a.rows;
    result.cols = a.cols;
    result.rank = r.rank;
    result.pivots = r.pivots;
    // Room for the trailer encode() appends, so that it does not regrow.
    TextStream text(io::output_bytes(a, field_, format_) + 24 * (r.pivots.size() + 8));
    io::write_matrix(text, a, field_, format_);
    result.matrix = text.take();
    out.push_back(std::move(result));
  }
  return out;
}

template <class F>
std::string RrefJobs<F>::encode(RrefJobResult result) const {
  std::string bytes = std::move(result.matrix);
  std::ostringstream trailer;
  trailer << trailer_tag << bytes.size() << ' ' << result.rows << ' ' << result.cols << ' '
          << result.rank << ' ' << std::hexfloat << result.seconds;
  for (const int p : result.pivots) trailer << ' ' << p;
  bytes += trailer.str();
  return bytes;
}

template <class F>
RrefJobResult RrefJobs<F>::decode(std::string bytes) const {
  const std::string tag = trailer_tag;
  const auto at = bytes.rfind(tag);
  const auto corrupt = [] {
    return Error("rref job: not a result of this form", ErrorKind::runtime);
  };
  if (at == std::string::npos) throw corrupt();
  std::istringstream trailer(bytes.substr(at + tag.size()));
  RrefJobResult result;
  std::size_t size = 0;
  std::string seconds;
  if (!(trailer >> size >> result.rows >> result.cols >> result.rank >> seconds) || size != at) {
    throw corrupt();
  }
  result.seconds = std::strtod(seconds.c_str(), nullptr);
  for (int p; trailer >> p;) result.pivots.push_back(p);
  if (!trailer.eof() || result.pivots.size() != result.rank) throw corrupt();
  bytes.resize(at);
  result.matrix = std::move(bytes);
  return result;
}

template class RrefJobs<field::Zp32>;
template class RrefJobs<field::Zp64>;
template class RrefJobs<field::Real64>;
template class RrefJobs<field::Complex128>;

}  // namespace hepex::linalg
