#pragma once
// The ceiling for modular arithmetic on 64-bit words: how many full
// 64 x 64 -> 128-bit integer products (field::mul_wide, the product
// inside every modular multiply-add) an execution space completes per second.

namespace hepex::bench {

// On the device (all of it) and on the host execution space (one thread for
// Serial).
double device_wide_multiply_rate();
double host_wide_multiply_rate();

}  // namespace hepex::bench
