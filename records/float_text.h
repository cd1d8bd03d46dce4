#pragma once
// Text for an f32 result: the shortest decimal that reads back as the same float ("0.1", "1e-05"),
// with ".0" on integral values so they still read as floats, as Python prints them.
#include <string>

namespace bertkit::records {

// Non-finite values are written "nan", "inf", "-inf"; JSON callers handle them first.
void append_float(std::string& out, float x);
void append_float(std::string& out, double x);

}  // namespace bertkit::records
