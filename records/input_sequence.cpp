#include "records/input_sequence.h"

#include "core/error.h"

#include <algorithm>

namespace bertkit::records {

InputSequence::InputSequence(std::vector<std::string> paths) {
  if (paths.empty()) paths.push_back("-");
  if (std::count(paths.begin(), paths.end(), "-") > 1) usage_error("stdin (-) is given as an input more than once");
  std::uint64_t total = 0;
  bool known = true;
  for (std::string& path : paths) inputs_.push_back(Input{std::move(path), nullptr, 0});
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    ByteStream& stream = open(i);
    if (auto size = stream.size())
      total += *size;
    else
      known = false;
    if (i > 0) close(i);  // keep few descriptors open however many inputs there are
  }
  if (known) total_ = total;
}

ByteStream& InputSequence::open(std::size_t i) {
  Input& input = inputs_[i];
  if (!input.stream) input.stream = std::make_unique<ByteStream>(input.path);
  reading_ = i;
  return *input.stream;
}

void InputSequence::close(std::size_t i) {
  Input& input = inputs_[i];
  if (reading_ == i) reading_.reset();
  if (!input.stream) return;
  input.consumed = std::max(input.consumed, input.stream->offset());
  if (input.path != "-") input.stream.reset();
}

bool InputSequence::stalls(int timeout_ms) const {
  return reading_ && inputs_[*reading_].stream->stalls(timeout_ms);
}

std::uint64_t InputSequence::bytes_read() const {
  std::uint64_t sum = 0;
  for (const Input& input : inputs_)
    sum += input.stream ? std::max(input.consumed, input.stream->offset()) : input.consumed;
  return sum;
}

}  // namespace bertkit::records
