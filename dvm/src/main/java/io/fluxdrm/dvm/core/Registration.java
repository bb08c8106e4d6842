package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.PmixProc;
import java.util.Set;

/** An event handler a client registered: for the codes it names, every code when none. */
record Registration(PmixProc proc, Set<Integer> codes) {}
