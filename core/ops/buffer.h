#pragma once
// A grow-only, 64-byte aligned float buffer: the encoder's scratch memory is sized once for the largest
// batch seen and reused, so steady-state batches allocate nothing.
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace bertkit::core {

class FloatBuffer {
 public:
  // At least n floats; the old contents are lost when the buffer has to grow.
  float* reserve(std::size_t n) {
    if (n > capacity_) {
      std::size_t bytes = (n * sizeof(float) + 63) / 64 * 64;  // aligned_alloc wants a multiple of 64
      data_.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
      if (!data_) throw std::bad_alloc();
      capacity_ = n;
    }
    return data_.get();
  }
  float* data() { return data_.get(); }
  const float* data() const { return data_.get(); }
  std::size_t capacity() const { return capacity_; }

 private:
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  std::unique_ptr<float, Free> data_;
  std::size_t capacity_ = 0;
};

}  // namespace bertkit::core
