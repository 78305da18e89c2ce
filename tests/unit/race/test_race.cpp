// Unit tests for the race checker on hand-written PTX kernels whose answers are known (filled below).
#include "checker/race/check.hpp"
#include <doctest/doctest.h>
