package org.itsrt.readings.pems;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dhatim.fastexcel.Workbook;
import org.dhatim.fastexcel.Worksheet;

/**
 * Builds small PeMS "Aggregates > Time Series" workbooks laid out like the real exports: strings
 * as inline strings, sheet "Report Data" with a header row, sheet "PeMS Report Description" with
 * the report link.
 */
final class ReportExport {
    private final long stationId;
    private final List<String> header = new ArrayList<>();
    private final List<Integer> lanes;
    private final boolean withSpeed;
    private final List<List<Object>> rows = new ArrayList<>();
    private String reportLink;

    private ReportExport(long stationId, boolean withSpeed, List<Integer> lanes) {
        this.stationId = stationId;
        this.withSpeed = withSpeed;
        this.lanes = lanes;
        this.reportLink = "http://pems.dot.ca.gov/?report_form=1&dnode=VDS&content=loops&tab=det_timeseries"
                + "&station_id=" + stationId + "&s_time_id=1519862400&q=flow&q2=" + (withSpeed ? "speed" : "")
                + "&gn=5min&agg=on";
        header.add("5 Minutes");
        for (int lane : lanes) {
            header.add("Lane " + lane + " Flow (Veh/5 Minutes)");
            if (withSpeed) {
                header.add("Lane " + lane + " Speed (mph)");
            }
        }
        header.add("Flow (Veh/5 Minutes)");
        if (withSpeed) {
            header.add("Speed (mph)");
        }
        header.add("# Lane Points");
        header.add("% Observed");
    }

    /** An export with flow and speed of lanes 1..lanes. */
    static ReportExport full(long stationId, int lanes) {
        return new ReportExport(
                stationId,
                true,
                java.util.stream.IntStream.rangeClosed(1, lanes).boxed().toList());
    }

    /** A flow-only export of the given lanes (a report may leave lanes out). */
    static ReportExport flowOnly(long stationId, Integer... lanes) {
        return new ReportExport(stationId, false, Arrays.asList(lanes));
    }

    /** A data row; lane values share the flow out evenly. */
    ReportExport row(String time, double flow, Double speed, double pctObserved) {
        List<Object> row = new ArrayList<>();
        row.add(time);
        for (int i = 0; i < lanes.size(); i++) {
            row.add(Math.floor(flow / lanes.size()));
            if (withSpeed) {
                row.add(speed);
            }
        }
        row.add(flow);
        if (withSpeed) {
            row.add(speed);
        }
        row.add(lanes.get(lanes.size() - 1));
        row.add(pctObserved);
        rows.add(row);
        return this;
    }

    /** A data row exactly as given, in header order: for malformed cells. */
    ReportExport rawRow(Object... cells) {
        rows.add(Arrays.asList(cells));
        return this;
    }

    /** Replaces the header row. */
    ReportExport header(String... names) {
        header.clear();
        header.addAll(Arrays.asList(names));
        return this;
    }

    ReportExport reportLink(String link) {
        reportLink = link;
        return this;
    }

    List<String> header() {
        return List.copyOf(header);
    }

    long stationId() {
        return stationId;
    }

    Path writeTo(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            Workbook workbook = new Workbook(out, "its-rt-tests", "1.0");
            Worksheet data = workbook.newWorksheet("Report Data");
            for (int c = 0; c < header.size(); c++) {
                data.inlineString(0, c, header.get(c));
            }
            for (int r = 0; r < rows.size(); r++) {
                List<Object> row = rows.get(r);
                for (int c = 0; c < row.size(); c++) {
                    Object cell = row.get(c);
                    if (cell instanceof String text) {
                        data.inlineString(r + 1, c, text);
                    } else if (cell instanceof Number number) {
                        data.value(r + 1, c, number);
                    }
                }
            }
            Worksheet description = workbook.newWorksheet("PeMS Report Description");
            description.inlineString(0, 0, "Report Description");
            description.inlineString(1, 1, "Report");
            description.inlineString(1, 2, "Aggregates>Time Series");
            if (reportLink != null) {
                description.inlineString(2, 1, "Report link");
                description.inlineString(2, 2, reportLink);
            }
            workbook.finish();
        }
        return file;
    }
}
