#include "model/pln_robot.h"
#include "../base/pln_status.h" /* a comment */
