#include "hepex/core/spaces.hpp"

#include "hepex/core/error.hpp"

namespace hepex {

Place parse_place(const std::string& name) {
  if (name == "host") return Place::host;
  if (name == "device") return Place::device;
  throw Error("unknown backend '" + name + "': use 'host' or 'device'");
}

const char* place_name(Place place) { return place == Place::host ? "host" : "device"; }

}  // namespace hepex
