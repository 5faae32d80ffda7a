#include "hepex/core/spaces.hpp"

#include "hepex/core/error.hpp"

namespace hepex {

Backend parse_backend(const std::string& name) {
  if (name == "host") return Backend::host;
  if (name == "device") return Backend::device;
  throw Error("unknown backend '" + name + "': use 'host' or 'device'");
}

const char* backend_name(Backend b) { return b == Backend::host ? "host" : "device"; }

}  // namespace hepex
