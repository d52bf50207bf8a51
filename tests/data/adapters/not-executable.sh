#!/bin/sh
# not executable on purpose (tests/test_external_broken.sh)
exit 0
