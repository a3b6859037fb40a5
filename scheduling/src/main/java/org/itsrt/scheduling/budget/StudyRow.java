package org.itsrt.scheduling.budget;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * One of the study's scheduler configurations, a line of {@code xen-configs/study-rows.tsv}, as
 * {@code xen-configs/apply-row.sh} applies it to the rt-vm. RTDS rows carry a budget and period per
 * vCPU; Credit and Credit2 rows a weight and a cap.
 *
 * @param pool the cpupool the domain is moved to; {@code -} when it stays where it is
 * @param rtds budget and period per vCPU; null for credit and credit2 rows
 * @param extratime whether RTDS may give the domain idle CPU beyond its budget; false for credit rows
 * @param weight the Credit/Credit2 weight; null for rtds rows
 * @param cap the Credit/Credit2 cap in % of one pCPU for the whole domain, 0 for none; null for rtds rows
 * @param source where the row comes from, e.g. {@code Table 4}
 * @param studyMaxMs the maximum latency the study measured with the row; null when it has none
 * @param line the row's line in its file
 */
public record StudyRow(
        String name,
        Sched sched,
        String pool,
        Reservation rtds,
        boolean extratime,
        Integer weight,
        Integer cap,
        String source,
        BigDecimal studyMaxMs,
        int line) {

    /**
     * The period a Credit cap is enforced over as CFS bandwidth. Credit has no period of its own
     * (its cap is a long-run share); 100 ms is CFS's default bandwidth period and the study's RTDS
     * period, so a capped Credit row and the RTDS rows are compared over the same window.
     */
    public static final long CREDIT_CAP_PERIOD_US = 100_000;

    /** Rows named so are Xen's defaults for a new vCPU or domain, what {@code apply-row.sh --restore} sets. */
    public static final String XEN_DEFAULT_PREFIX = "default-";

    /** The rt-vm's scheduler in a row. */
    public enum Sched {
        RTDS("rtds", "Xen RTDS"),
        CREDIT("credit", "Xen Credit"),
        CREDIT2("credit2", "Xen Credit2");

        public final String tsvName;
        public final String title;

        Sched(String tsvName, String title) {
            this.tsvName = tsvName;
            this.title = title;
        }
    }

    public boolean xenDefault() {
        return name.startsWith(XEN_DEFAULT_PREFIX);
    }

    /** Whether the row limits the domain's CPU: an RTDS budget, or a Credit cap. */
    public boolean limited() {
        return rtds != null || cap > 0;
    }

    /**
     * The row's reservation per vCPU for a domain of {@code vcpus}: an RTDS row's budget and period
     * as they are; a capped Credit row's cap as CFS bandwidth over {@link #CREDIT_CAP_PERIOD_US}
     * for the whole domain (cap 153 = 153000 us every 100000 us), shared equally by the vCPUs.
     * Empty for rows without a limit, which set a CPU share only.
     *
     * @throws IllegalArgumentException when the cap does not split into whole microseconds per vCPU
     *     or asks more than the vCPUs can use
     */
    public Optional<Reservation> reservation(int vcpus) {
        if (vcpus < 1) {
            throw new IllegalArgumentException("vcpus must be >= 1, got " + vcpus);
        }
        if (rtds != null) {
            return Optional.of(rtds);
        }
        if (cap == 0) {
            return Optional.empty();
        }
        long quotaUs = capQuotaUs();
        if (quotaUs > CREDIT_CAP_PERIOD_US * vcpus) {
            throw new IllegalArgumentException("row " + name + ": cap " + cap + " asks " + cap + "% of one CPU, more "
                    + "than " + vcpus + " vCPU(s) can use (at most " + 100 * vcpus + ")");
        }
        if (quotaUs % vcpus != 0) {
            throw new IllegalArgumentException("row " + name + ": cap " + cap + " is " + quotaUs + " us every "
                    + CREDIT_CAP_PERIOD_US + " us, which does not split into whole microseconds over " + vcpus
                    + " vCPUs");
        }
        return Optional.of(new Reservation(quotaUs / vcpus, CREDIT_CAP_PERIOD_US));
    }

    /** A capped Credit row's cap as CFS quota for the whole domain over {@link #CREDIT_CAP_PERIOD_US}. */
    public long capQuotaUs() {
        return cap * CREDIT_CAP_PERIOD_US / 100;
    }

    /** The row's scheduler parameters in words, as {@code apply-row.sh} describes them. */
    public String parameters() {
        return rtds != null
                ? "period " + rtds.periodUs() + " us, budget " + rtds.budgetUs() + " us, extratime "
                        + (extratime ? 1 : 0)
                : "weight " + weight + ", cap " + cap + (cap == 0 ? " (none)" : "");
    }

    /** Where the row comes from, for readers: {@code Table 4 of the study}, {@code Xen default}. */
    public String origin() {
        return source.startsWith("Table ") ? source + " of the study" : source;
    }

    /** The xl command that sets the row's parameters on {@code domain} (the pool move aside). */
    public String xl(String domain) {
        return rtds != null
                ? "xl sched-rtds -d " + domain + " -v all -p " + rtds.periodUs() + " -b " + rtds.budgetUs() + " -e "
                        + (extratime ? 1 : 0)
                : "xl sched-" + sched.tsvName + " -d " + domain + " -w " + weight + " -c " + cap;
    }
}
