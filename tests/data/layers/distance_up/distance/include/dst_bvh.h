#include "dst.h"
