#include "cli/pln_cli.h"
#include "model/pln_robot.h"
#include "generated/assets.inc"
  #  include "dst_bvh.h"
