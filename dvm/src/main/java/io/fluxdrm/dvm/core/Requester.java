package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.PmixProc;
import java.util.Optional;

/** Who waits for a campaign's second-phase event (seed 003 "two-phase", D12). */
record Requester(PmixProc proc, Optional<String> allocId, Optional<String> reqId) {}
