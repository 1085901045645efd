#include "model/pln_kin.h"
