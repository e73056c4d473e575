// The header's declaration is all this target provides; SwiftPM wants a source file.
#include "fuzz_driver.h"
