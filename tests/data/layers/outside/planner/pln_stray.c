#include "base/pln_status.h"
