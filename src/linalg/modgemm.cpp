#include "hepex/linalg/modgemm.hpp"

namespace hepex::linalg {

GemmMethod parse_gemm_method(const std::string& name) {
  if (name == "auto") return GemmMethod::automatic;
  if (name == "fp64") return GemmMethod::fp64;
  if (name == "int64") return GemmMethod::int64;
  if (name == "int8") return GemmMethod::int8;
  if (name == "multiword") return GemmMethod::multiword;
  throw Error("unknown --method '" + name + "': use auto, fp64, multiword, int64 or int8");
}

const char* gemm_method_name(GemmMethod method) {
  switch (method) {
    case GemmMethod::fp64: return "fp64";
    case GemmMethod::multiword: return "multiword";
    case GemmMethod::int64: return "int64";
    case GemmMethod::int8: return "int8";
    default: return "auto";
  }
}

GemmMethod resolve_gemm_method(GemmMethod requested, std::uint64_t p) {
  const bool fp64_exact = fp64_block(p) >= 1;
  if (requested == GemmMethod::automatic) return fp64_exact ? GemmMethod::fp64 : GemmMethod::int64;
  if (requested == GemmMethod::fp64 && !fp64_exact) {
    throw Error("--method fp64 is not exact for p = " + std::to_string(p) +
                ": centred residues up to p/2 have products above 2^53; use int64 or auto");
  }
  if (requested == GemmMethod::multiword && multiword_block(p) < 1) {
    throw Error("--method multiword is not exact for p = " + std::to_string(p) +
                ": its half-word products exceed 2^53 (it reaches p of about 2^54.5); use int8 or int64");
  }
  return requested;
}

}  // namespace hepex::linalg
