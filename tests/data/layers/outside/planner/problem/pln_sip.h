#include "motion/pln_spline.h"
