# contact module: sources of libmotionbench.
libmotionbench_la_SOURCES += src/contact/clump.c
libmotionbench_la_SOURCES += src/contact/constraint.c
libmotionbench_la_SOURCES += src/contact/locdyn.c
libmotionbench_la_SOURCES += src/contact/contact_detect.c
libmotionbench_la_SOURCES += src/contact/scene.c
libmotionbench_la_SOURCES += src/contact/consolver.c
libmotionbench_la_SOURCES += src/contact/contact_ac.c
motionbenchinclude_HEADERS += src/contact/mb_clump.h
motionbenchinclude_HEADERS += src/contact/mb_constraint.h
motionbenchinclude_HEADERS += src/contact/mb_locdyn.h
motionbenchinclude_HEADERS += src/contact/mb_contact_detect.h
motionbenchinclude_HEADERS += src/contact/mb_scene.h
motionbenchinclude_HEADERS += src/contact/mb_consolver.h
motionbenchinclude_HEADERS += src/contact/mb_contact_ac.h
