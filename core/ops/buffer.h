#pragma once
// A grow-only, 64-byte aligned buffer (of floats, or of bf16 values as std::uint16_t): the encoder's
// scratch memory is sized once for the largest batch seen and reused, so steady-state batches allocate
// nothing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace bertkit::core {

template <typename T>
class AlignedBuffer {
 public:
  // At least n values; the old contents are lost when the buffer has to grow.
  T* reserve(std::size_t n) {
    if (n > capacity_) {
      std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;  // aligned_alloc wants a multiple of 64
      data_.reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
      if (!data_) throw std::bad_alloc();
      capacity_ = n;
    }
    return data_.get();
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t capacity() const { return capacity_; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t capacity_ = 0;
};

using FloatBuffer = AlignedBuffer<float>;
using Bf16Buffer = AlignedBuffer<std::uint16_t>;

}  // namespace bertkit::core
