// The process registry's entries (generated/process_table.hpp). The table's
// factories are instantiated each in its process's translation unit
// (src/amplitudes/processes/<name>.cpp, generated with the table).
#include "hepex/amplitudes/detail/generated/process_table.hpp"

#include <string>

#include "hepex/core/error.hpp"

namespace hepex::amplitudes::detail {

static_assert(sizeof(generated::process_table) / sizeof(ProcessEntry) == process_count,
              "one registry entry per process");

const ProcessEntry& process_entry(Process process) {
  const int i = static_cast<int>(process);
  if (i < 0 || i >= process_count) {
    throw Error("process " + std::to_string(i) + ": not in the registry", ErrorKind::runtime);
  }
  const ProcessEntry& entry = generated::process_table[i];
  if (entry.info.process != process) {
    throw Error("process registry out of order at " + std::to_string(i), ErrorKind::runtime);
  }
  return entry;
}

}  // namespace hepex::amplitudes::detail
