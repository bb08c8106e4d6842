package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.PmixProc;
import java.util.Optional;

/** Who waits for a campaign's second-phase event (PRRTE's elastic-DVM spec "two-phase", D12). */
record Requester(PmixProc proc, Optional<String> allocId, Optional<String> reqId) {}
