package dev.muster.simulator;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.StringReader;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TraceReaderTest {

    @Test
    void readsPhillyColumnsAndSortsBySubmission() {
        List<TraceJob> jobs = read("""
                timestamp,duration,num_gpus,gpu_time,cluster
                2017-10-09 07:01:55,66.0,1,66.0,11cb48
                2017-10-09 06:13:03,2951.4,16,47222.4,6214e9
                """);

        assertThat(jobs).containsExactly(
                new TraceJob(3, Instant.parse("2017-10-09T06:13:03Z"), 2951, 16, "6214e9"),
                new TraceJob(2, Instant.parse("2017-10-09T07:01:55Z"), 66, 1, "11cb48"));
    }

    @Test
    void takesSecondsAsTimestampsAndNeedsNoCluster() {
        assertThat(read("num_gpus,timestamp,duration\n2,100,0.2\n"))
                .containsExactly(new TraceJob(2, Instant.ofEpochSecond(100), 1, 2, ""));
    }

    @Test
    void namesFileLineAndColumnOfABadNumber() {
        assertThatThrownBy(() -> read("timestamp,duration,num_gpus\n\n100,1,2\n200,ten,1\n"))
                .isInstanceOf(TraceFormatException.class)
                .hasMessage("t.csv:4:2: duration 'ten': not a number");
    }

    @Test
    void namesFileLineAndColumnOfAFractionalGpuCount() {
        assertThatThrownBy(() -> read("timestamp,duration,num_gpus\n100,1,1.5\n"))
                .hasMessage("t.csv:2:3: num_gpus '1.5': not a whole number");
    }

    @Test
    void namesFileLineAndColumnOfABadTimestamp() {
        assertThatThrownBy(() -> read("timestamp,duration,num_gpus\n2017-13-01 00:00:00,1,1\n"))
                .hasMessage("t.csv:2:1: timestamp '2017-13-01 00:00:00': not a time; expected yyyy-MM-dd HH:mm:ss (UTC) or seconds");
    }

    @Test
    void namesTheLineWithTooFewFields() {
        assertThatThrownBy(() -> read("timestamp,duration,num_gpus\n100,1\n"))
                .hasMessage("t.csv:2:3: expected 3 fields as in the header, found 2");
    }

    @Test
    void namesAMissingColumn() {
        assertThatThrownBy(() -> read("timestamp,duration\n100,1\n"))
                .hasMessage("t.csv:1:3: missing column 'num_gpus'; the header has [timestamp, duration]");
    }

    @Test
    void rejectsZeroGpus() {
        assertThatThrownBy(() -> read("timestamp,duration,num_gpus\n100,1,0\n"))
                .hasMessage("t.csv:2:3: num_gpus '0': must be at least 1");
    }

    private static List<TraceJob> read(String csv) {
        return TraceReader.read("t.csv", new BufferedReader(new StringReader(csv)));
    }
}
