#include "hepex/core/text_stream.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

namespace hepex {

TextStream::TextStream(std::size_t expected_bytes)
    : std::ostream(nullptr), buffer_(expected_bytes) {
  rdbuf(&buffer_);
}

std::string TextStream::take() { return buffer_.take(); }

std::string TextStream::Buffer::take() {
  text_.resize(used());
  std::string text = std::move(text_);
  text_ = std::string();
  setp(nullptr, nullptr);
  return text;
}

TextStream::Buffer::int_type TextStream::Buffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  grow(1);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize TextStream::Buffer::xsputn(const char* s, std::streamsize n) {
  const auto bytes = static_cast<std::size_t>(n);
  if (static_cast<std::size_t>(epptr() - pptr()) < bytes) grow(bytes);
  std::memcpy(pptr(), s, bytes);
  advance(bytes);
  return n;
}

void TextStream::Buffer::advance(std::size_t n) {
  for (; n > 0;) {
    const int step = static_cast<int>(std::min<std::size_t>(n, INT_MAX));
    pbump(step);
    n -= static_cast<std::size_t>(step);
  }
}

// Room for `more` bytes past what is written: first the reserved capacity,
// then twice the size.
void TextStream::Buffer::grow(std::size_t more) {
  const std::size_t written = used();
  const std::size_t next = text_.size() < text_.capacity() ? text_.capacity() : 2 * text_.size();
  text_.resize(std::max({written + more, next, std::size_t{256}}));
  setp(text_.data(), text_.data() + text_.size());
  advance(written);
}

}  // namespace hepex
