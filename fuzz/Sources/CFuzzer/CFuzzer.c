// Declarations only; libFuzzer (linked by -sanitize=fuzzer) provides LLVMFuzzerRunDriver.
#include "CFuzzer.h"
