#pragma once
// Text built in memory and handed over without a copy.

#include <cstddef>
#include <ostream>
#include <streambuf>
#include <string>

namespace hepex {

// An output stream that builds its text in one std::string and hands it over
// with take(), without the copy that std::ostringstream::str() makes (C++17);
// `expected_bytes` reserves room for it up front.
class TextStream : public std::ostream {
 public:
  explicit TextStream(std::size_t expected_bytes = 0);
  TextStream(const TextStream&) = delete;
  TextStream& operator=(const TextStream&) = delete;
  // The text written so far; the stream is empty afterwards.
  std::string take();

 private:
  class Buffer : public std::streambuf {
   public:
    explicit Buffer(std::size_t expected_bytes) { text_.reserve(expected_bytes); }
    std::string take();

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;

   private:
    std::size_t used() const { return static_cast<std::size_t>(pptr() - pbase()); }
    void advance(std::size_t n);
    void grow(std::size_t more);
    std::string text_;  // text_[0, used()) is written
  };
  Buffer buffer_;
};

}  // namespace hepex
