import static com.github.tomakehurst.wiremock.client.WireMock.*;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * WireMock 2.35.1's own Java client against a server on loopback (the real WireMock or
 * mock-server): each call the client's users make, with what it must leave behind. Prints one
 * line per check ("ok NAME" or "FAIL NAME: why") and a closing "N passed, M failed" line; exits 1
 * on any failure. Usage: java -cp wiremock-standalone.jar:. JavaClientCheck PORT
 */
public class JavaClientCheck {
    private static int port;
    private static final List<String> failures = new ArrayList<>();
    private static int passed = 0;

    interface Check { void run() throws Exception; }

    private static void check(String name, Check body) {
        try {
            body.run();
            passed++;
            System.out.println("ok " + name);
        } catch (Throwable t) {
            failures.add(name);
            System.out.println("FAIL " + name + ": " + t);
        }
    }

    private static void expect(boolean condition, String what) {
        if (!condition) throw new AssertionError(what);
    }

    /** GET path on the server: status and body. */
    private static String[] fetch(String path) throws Exception {
        HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port + path).openConnection();
        c.setRequestMethod("GET");
        int status = c.getResponseCode();
        java.io.InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream();
        String body = in == null ? "" : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        c.disconnect();
        return new String[] {Integer.toString(status), body};
    }

    public static void main(String[] args) {
        port = Integer.parseInt(args[0]);
        WireMock.configureFor("127.0.0.1", port);
        UUID id = UUID.fromString("6a1c2b3d-0000-4000-8000-00000000a001");

        check("resetAll", WireMock::reset);
        check("register", () -> {
            stubFor(get(urlEqualTo("/java/hello")).withId(id).willReturn(aResponse().withStatus(200).withBody("hello")));
            String[] answer = fetch("/java/hello");
            expect(answer[0].equals("200") && answer[1].equals("hello"), "GET /java/hello gave " + answer[0] + " " + answer[1]);
        });
        check("listAllStubMappings", () -> {
            List<StubMapping> all = listAllStubMappings().getMappings();
            expect(all.stream().anyMatch(m -> id.equals(m.getId())), "the registered stub is not listed: " + all);
        });
        check("getSingleStubMapping", () -> {
            StubMapping one = getSingleStubMapping(id);
            expect(one != null && id.equals(one.getId()), "got " + one);
        });
        check("editStub", () -> {
            editStub(get(urlEqualTo("/java/hello")).withId(id).willReturn(aResponse().withStatus(201).withBody("edited")));
            String[] answer = fetch("/java/hello");
            expect(answer[0].equals("201") && answer[1].equals("edited"), "after editStub GET gave " + answer[0] + " " + answer[1]);
        });
        check("find", () -> {
            List<LoggedRequest> found = findAll(getRequestedFor(urlEqualTo("/java/hello")));
            expect(found.size() == 2, "found " + found.size() + " requests, expected 2");
        });
        check("verify", () -> verify(2, getRequestedFor(urlEqualTo("/java/hello"))));
        check("getAllServeEvents", () -> {
            int events = getAllServeEvents().size();
            expect(events >= 2, "serve events: " + events);
        });
        check("resetRequests", () -> {
            resetAllRequests();
            expect(findAll(getRequestedFor(urlEqualTo("/java/hello"))).isEmpty(), "requests left after resetAllRequests");
        });
        check("setScenarioState and resetScenarios", () -> {
            stubFor(get(urlEqualTo("/java/scenario")).inScenario("java-flow").whenScenarioStateIs(Scenario.STARTED)
                    .willReturn(aResponse().withBody("first")).willSetStateTo("second"));
            stubFor(get(urlEqualTo("/java/scenario")).inScenario("java-flow").whenScenarioStateIs("second")
                    .willReturn(aResponse().withBody("second")));
            expect(fetch("/java/scenario")[1].equals("first"), "the scenario did not start");
            expect(fetch("/java/scenario")[1].equals("second"), "the scenario did not move");
            resetAllScenarios();
            expect(fetch("/java/scenario")[1].equals("first"), "resetAllScenarios did not reset");
            setScenarioState("java-flow", "second");
            expect(fetch("/java/scenario")[1].equals("second"), "setScenarioState did not set");
        });
        check("removeStub", () -> {
            removeStub(get(urlEqualTo("/java/hello")).withId(id).willReturn(aResponse().withStatus(201).withBody("edited")));
            expect(fetch("/java/hello")[0].equals("404"), "the removed stub still answers");
        });
        check("resetToDefault", WireMock::resetToDefault);

        System.out.println(passed + " passed, " + failures.size() + " failed");
        System.exit(failures.isEmpty() ? 0 : 1);
    }
}
