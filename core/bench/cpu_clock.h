#pragma once
// Process CPU time, to report the share of the cores a timed run actually got.
namespace bertkit::core {

// CPU seconds all threads of this process have used so far.
double process_cpu_seconds();

}  // namespace bertkit::core
