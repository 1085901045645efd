#include "base/pln_status.h"
#include <stdio.h>
