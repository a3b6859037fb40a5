package org.itsrt.scheduling.linux;

import java.util.LinkedHashMap;
import java.util.Map;

/** The baseline: the process runs as the system schedules it, with nothing reserved or capped. */
public final class NoneBackend implements CpuBudgetBackend {

    public static final String NAME = "none";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public AppliedBudget apply(long pid) {
        return new AppliedBudget() {
            @Override
            public String backend() {
                return NAME;
            }

            @Override
            public String description() {
                return "no budget: process " + pid + " as the system schedules it";
            }

            @Override
            public Map<String, Object> facts() {
                Map<String, Object> facts = new LinkedHashMap<>();
                facts.put("backend", NAME);
                facts.put("pid", pid);
                return facts;
            }

            @Override
            public void close() {
                // nothing was changed
            }
        };
    }
}
