package org.storeservice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The help pages as people use them: the system's headless Chromium opens the service page, follows the
 * WriteString link, fills the Invoke form and submits it; the XML answer the browser shows and the value
 * stored must be what was typed. One browser session for the class. A screenshot of every page is kept under
 * {@code target/screenshots/} for a reviewer.
 *
 * <p>Nothing is downloaded: the driver and the browser are given by path, so Selenium Manager (which would
 * otherwise look for, and fetch, both) is never run.
 */
@Timeout(180)
class HelpPagesInBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final String INSTALL = "apt-get install chromium chromium-driver";
    static final Path SCREENSHOTS = Path.of("target", "screenshots");
    static final String NAMESPACE = "http://tempuri.org/";

    /**
     * Typed into the form: two- and three-byte UTF-8 and markup. ChromeDriver types characters of the BMP
     * only; scripts the default Debian fonts draw, so that the screenshots show what was typed.
     */
    static final String TYPED = "Grüße, Ελληνικά Кириллица € <b>&amp;</b> \"quoted\" ±½";

    private static ServedStore store;
    private static ChromeDriver browser;
    private static WebDriverWait wait;

    @BeforeAll
    static void start() throws Exception {
        ExternalClient.requireExecutables("The help pages in a browser", INSTALL, CHROMIUM, CHROMEDRIVER);
        store = new ServedStore();
        ChromeDriverService driver = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM.toFile())
                // --no-sandbox: Chromium's sandbox refuses to run as root, as CI containers do
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                        "--disable-gpu", "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--disable-default-apps");
        browser = new ChromeDriver(driver, options);
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (store != null) {
            store.close();
        }
    }

    @Test
    void invokeWriteStringFromItsHelpPage() throws Exception {
        browser.get(store.endpoint().toString());
        assertEquals("Store Web Service", browser.getTitle());
        screenshot("1-service-page");

        browser.findElement(By.linkText("WriteString")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.tagName("h2")));
        assertEquals("WriteString", browser.findElement(By.tagName("h2")).getText());
        assertEquals(store.endpoint() + "?op=WriteString", browser.getCurrentUrl());
        screenshot("2-writestring-page");

        WebElement form = browser.findElement(By.tagName("form"));
        form.findElement(By.name("key")).sendKeys("browser-key");
        form.findElement(By.name("value")).sendKeys(TYPED);
        screenshot("3-writestring-form-filled");
        String helpWindow = browser.getWindowHandle();
        form.findElement(By.cssSelector("input[type=submit][value=Invoke]")).click();

        // The form targets _blank, as ASMX's does: the answer opens in a new window.
        wait.until(ExpectedConditions.numberOfWindowsToBe(2));
        Set<String> windows = browser.getWindowHandles();
        windows.remove(helpWindow);
        browser.switchTo().window(windows.iterator().next());
        wait.until(b -> "complete".equals(((JavascriptExecutor) b).executeScript("return document.readyState")));
        assertEquals(store.endpoint() + "/WriteString", browser.getCurrentUrl());
        // Chromium shows an XML answer in its XML viewer, an HTML page that keeps the parsed answer in
        // #webkit-xml-viewer-source-xml; without the viewer the answer is the document itself.
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) browser.executeScript(
                "const viewer = document.getElementById('webkit-xml-viewer-source-xml');"
                        + "const root = viewer ? viewer.firstElementChild : document.documentElement;"
                        + "return {contentType: document.contentType, name: root.localName,"
                        + " namespace: root.namespaceURI, text: root.textContent};");
        assertEquals(Map.of("contentType", "text/xml", "name", "Status", "namespace", NAMESPACE, "text", "Success"),
                answer);
        String shown = browser.findElement(By.tagName("body")).getText();
        assertTrue(shown.contains("<Status xmlns=\"" + NAMESPACE + "\">Success</Status>"), shown);
        screenshot("4-invoke-answer");

        store.assertStoredText("browser-key", TYPED);
        browser.close();
        browser.switchTo().window(helpWindow);
    }

    @Test
    void writeBytesPageHasNoTestForm() throws Exception {
        browser.get(store.endpoint() + "?op=WriteBytes");
        assertEquals("WriteBytes", browser.findElement(By.tagName("h2")).getText());
        assertEquals(List.of(), browser.findElements(By.tagName("form")));
        assertTrue(browser.findElement(By.tagName("body")).getText()
                .contains("The test form is only available for methods with primitive types as parameters."));
        screenshot("5-writebytes-page");
    }

    private static void screenshot(String name) throws IOException {
        File shot = browser.getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        Files.delete(shot.toPath());
    }
}
