/* placeholder: replaced by the front-end pipeline */
#include "aucs/util.h"
