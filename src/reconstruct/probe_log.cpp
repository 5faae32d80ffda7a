#include "hepex/reconstruct/probe_log.hpp"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "hepex/core/error.hpp"
#include "hepex/core/fingerprint.hpp"
#include "hepex/io/read_stream.hpp"

namespace hepex::reconstruct {

namespace {

// FNV-1a over words (their little-endian bytes).
std::uint64_t checksum(const std::uint64_t* words, std::size_t count) {
  Fnv1a hash;
  for (std::size_t i = 0; i < count; ++i) hash.add_word(words[i]);
  return hash.value();
}

void to_little_endian(const std::uint64_t* words, std::size_t count, unsigned char* bytes) {
  for (std::size_t i = 0; i < count; ++i)
    for (int b = 0; b < 8; ++b) bytes[8 * i + b] = static_cast<unsigned char>(words[i] >> (8 * b));
}

std::uint64_t from_little_endian(const unsigned char* bytes) {
  std::uint64_t w = 0;
  for (int b = 7; b >= 0; --b) w = (w << 8) | bytes[b];
  return w;
}

}  // namespace

ProbeLog::ProbeLog(const BlackBox& box, std::string path, const std::string& identity,
                   std::uint64_t seed)
    : box_(box), path_(std::move(path)), seed_(seed) {
  const std::string shape = "hepex probe log 1 " + std::to_string(variables()) + ' ' +
                            std::to_string(functions()) + ' ' + fingerprint(identity);
  // An empty file is one killed before its header was written: made afresh.
  std::error_code error;
  if (std::filesystem::exists(path_, error) && std::filesystem::file_size(path_, error) > 0 &&
      !error) {
    load(shape);
  } else {
    const std::string header = shape + ' ' + std::to_string(seed_) + '\n';
    file_ = std::fopen(path_.c_str(), "wb");
    if (file_ == nullptr || std::fwrite(header.data(), 1, header.size(), file_) != header.size() ||
        std::fflush(file_) != 0) {
      throw Error(path_ + ": cannot write the probe log", ErrorKind::runtime);
    }
  }
}

std::optional<std::uint64_t> ProbeLog::stored_seed(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string header;
  if (!in || !std::getline(in, header) || in.eof() || header.rfind("hepex probe log 1 ", 0) != 0)
    return std::nullopt;
  const std::size_t last = header.find_last_of(' ');
  std::istringstream tail(header.substr(last + 1));
  std::uint64_t seed = 0;
  if (!(tail >> seed) || !(tail >> std::ws).eof()) return std::nullopt;
  return seed;
}

ProbeLog::~ProbeLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void ProbeLog::load(const std::string& expected_shape) {
  std::ifstream in(path_, std::ios::binary);
  if (!in) throw Error(path_ + ": cannot read the probe log", ErrorKind::runtime);
  std::string header;
  if (!std::getline(in, header) || in.eof()) {
    throw Error(path_ + ": not a hepex probe log (no header line); delete it to start afresh");
  }
  if (header.rfind(expected_shape + ' ', 0) != 0) {
    throw Error(path_ +
                ": a probe log of another job (other functions, variables or options): "
                "use another --checkpoint directory or delete it");
  }
  std::istringstream tail(header.substr(expected_shape.size() + 1));
  if (!(tail >> seed_) || !(tail >> std::ws).eof()) {
    throw Error(path_ + ": the probe log's header has no seed; delete it to start afresh");
  }
  const std::size_t header_bytes = header.size() + 1;
  const std::string bytes = io::read_stream(in);
  if (in.bad()) throw Error(path_ + ": cannot read the probe log", ErrorKind::runtime);
  const std::size_t words = record_words(), size = 8 * words;
  std::vector<std::uint64_t> record(words);
  std::size_t offset = 0;
  for (; offset + size <= bytes.size(); offset += size) {
    for (std::size_t w = 0; w < words; ++w)
      record[w] =
          from_little_endian(reinterpret_cast<const unsigned char*>(bytes.data()) + offset + 8 * w);
    if (checksum(record.data(), words - 1) != record[words - 1] || record[1 + variables()] > 1)
      break;
    index_.emplace(key(record[0], record.data() + 1), records_.size() / words);
    records_.insert(records_.end(), record.begin(), record.end());
  }
  loaded_ = records_.size() / words;
  dropped_bytes_ = bytes.size() - offset;
  // Appends continue after the last good record.
  if (dropped_bytes_ > 0) {
    std::error_code error;
    std::filesystem::resize_file(path_, header_bytes + offset, error);
    if (error)
      throw Error(path_ + ": cannot truncate the probe log: " + error.message(),
                  ErrorKind::runtime);
  }
  file_ = std::fopen(path_.c_str(), "ab");
  if (file_ == nullptr) throw Error(path_ + ": cannot write the probe log", ErrorKind::runtime);
}

std::uint64_t ProbeLog::key(std::uint64_t prime, const std::uint64_t* x) const {
  std::uint64_t h = checksum(&prime, 1);
  return h ^ checksum(x, variables());
}

std::size_t ProbeLog::find(std::uint64_t prime, const std::uint64_t* x) const {
  const std::size_t n = variables(), words = record_words();
  const auto [first, last] = index_.equal_range(key(prime, x));
  for (auto it = first; it != last; ++it) {
    const std::uint64_t* r = records_.data() + it->second * words;
    if (r[0] == prime && std::equal(x, x + n, r + 1)) return it->second;
  }
  return std::string::npos;
}

void ProbeLog::evaluate(const field::Zp64& f, std::size_t count,
                        const std::vector<std::uint64_t>& points,
                        std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (file_ == nullptr) throw Error(path_ + ": the probe log was removed", ErrorKind::runtime);
  if (!verified_) verify();
  const std::size_t n = variables(), F = functions(), words = record_words();
  const std::uint64_t p = f.modulus();
  values.assign(count * F, 0);
  ok.assign(count, 0);
  // The points the log does not have, in their order, evaluated together.
  std::vector<std::size_t> missing;
  std::vector<std::uint64_t> fresh_points;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t* x = points.data() + i * n;
    const std::size_t r = find(p, x);
    if (r == std::string::npos) {
      missing.push_back(i);
      fresh_points.insert(fresh_points.end(), x, x + n);
      continue;
    }
    const std::uint64_t* record = records_.data() + r * words;
    ok[i] = static_cast<std::uint8_t>(record[1 + n]);
    std::copy(record + 2 + n, record + 2 + n + F,
              values.begin() + static_cast<std::ptrdiff_t>(i * F));
    ++replayed_;
  }
  if (missing.empty()) return;
  std::vector<std::uint64_t> fresh_values;
  std::vector<std::uint8_t> fresh_ok;
  box_.evaluate(f, missing.size(), fresh_points, fresh_values, fresh_ok);
  std::vector<std::uint64_t> record(words);
  std::vector<unsigned char> bytes(8 * words * missing.size());
  for (std::size_t m = 0; m < missing.size(); ++m) {
    const std::size_t i = missing[m];
    record[0] = p;
    std::copy(fresh_points.begin() + static_cast<std::ptrdiff_t>(m * n),
              fresh_points.begin() + static_cast<std::ptrdiff_t>((m + 1) * n), record.begin() + 1);
    record[1 + n] = fresh_ok[m] != 0 ? 1 : 0;
    for (std::size_t g = 0; g < F; ++g)
      record[2 + n + g] = fresh_ok[m] != 0 ? fresh_values[m * F + g] : 0;
    record[words - 1] = checksum(record.data(), words - 1);
    to_little_endian(record.data(), words, bytes.data() + 8 * words * m);
    ok[i] = fresh_ok[m];
    if (fresh_ok[m] != 0)
      std::copy(record.begin() + 2 + static_cast<std::ptrdiff_t>(n),
                record.begin() + 2 + static_cast<std::ptrdiff_t>(n + F),
                values.begin() + static_cast<std::ptrdiff_t>(i * F));
    index_.emplace(key(p, record.data() + 1), records_.size() / words);
    records_.insert(records_.end(), record.begin(), record.end());
  }
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size() ||
      std::fflush(file_) != 0) {
    throw Error(path_ + ": cannot write the probe log (disk full?)", ErrorKind::runtime);
  }
}

void ProbeLog::verify() const {
  // A few stored points evaluated again: a log of another function (the same
  // text fingerprint cannot tell a changed callable) is refused, not replayed.
  verified_ = true;
  const std::size_t n = variables(), F = functions(), words = record_words();
  const std::size_t picks[] = {0, loaded_ / 3, 2 * loaded_ / 3, loaded_ > 0 ? loaded_ - 1 : 0};
  for (std::size_t k = 0; k < (loaded_ < 4 ? loaded_ : 4); ++k) {
    const std::uint64_t* record = records_.data() + picks[k] * words;
    const field::Zp64 f(record[0]);
    std::vector<std::uint64_t> point(record + 1, record + 1 + n), values;
    std::vector<std::uint8_t> ok;
    box_.evaluate(f, 1, point, values, ok);
    const bool same =
        (ok.at(0) != 0) == (record[1 + n] != 0) &&
        (ok[0] == 0 || std::equal(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(F),
                                  record + 2 + n));
    if (!same) {
      throw Error(path_ + ": the black box's value at stored point " +
                  std::to_string(picks[k] + 1) + " (mod " + std::to_string(record[0]) +
                  ") differs from the log's: a log of another function; delete it");
    }
  }
}

std::size_t ProbeLog::replayed() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return replayed_;
}

void ProbeLog::remove() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
  std::error_code error;
  std::filesystem::remove(path_, error);
  if (error)
    throw Error(path_ + ": cannot delete the probe log: " + error.message(), ErrorKind::runtime);
}

}  // namespace hepex::reconstruct
