#include "base/pln_status.h"
#include "base/pln_nowhere.h"
