#include "output/pln_out.h"
