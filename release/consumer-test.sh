#!/usr/bin/env bash
# A host application as docs/embedding.md says to make one: the release build deployed to a repository in a directory
# (as a team deploys to its own, "From a repository other than Maven Central"), then a fresh project whose pom.xml is
# the page's own (its first XML block, store-bom imported, the modules without versions) with the page's
# <repositories> block pointed at that directory, built with a local repository of its own (so nothing comes from
# this machine's ~/.m2), and run: the page's store example on SQLite, and a StoreServer that starts and stops. The
# deployed javadoc's footer must state the licence. Neither build writes to this machine's local repository: the
# deploy reads it as a repository in a directory, beside Maven Central, into one of its own. Needs Maven Central;
# CI runs it after the release build (.ci/run).
#
# usage: release/consumer-test.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { echo "consumer-test: $*"; }
fail() { echo "consumer-test: FAILED: $*" >&2; exit 1; }

evaluate() { (cd "$root" && mvn -B -ntp -q help:evaluate -Dexpression="$1" -DforceStdout | sed "s/\x1b\[[0-9;]*m//g"); }
version=$(evaluate project.version)
local_repository=$(evaluate settings.localRepository)
# A deploy records the target repository's metadata in the local repository; so this one gets a local repository of
# its own, which takes what this machine's has (read as a repository in a directory) before asking Central.
cat > "$work/settings.xml" <<EOF
<settings>
  <profiles>
    <profile>
      <id>this-machine</id>
      <repositories><repository><id>this-machine</id><url>file://$local_repository</url></repository></repositories>
      <pluginRepositories>
        <pluginRepository><id>this-machine</id><url>file://$local_repository</url></pluginRepository>
      </pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>this-machine</activeProfile></activeProfiles>
</settings>
EOF
say "deploying $version to file://$work/repo"
(cd "$root" && mvn -B -ntp -q -s "$work/settings.xml" -Dmaven.repo.local="$work/deploy-m2" -Prelease -DskipTests \
    -Dmaven.install.skip=true deploy -DaltDeploymentRepository="consumer-test::file://$work/repo")
[ -f "$work/repo/org/storeservice/store-bom/maven-metadata.xml" ] || fail "store-bom was not deployed"
javadoc=$(find "$work/repo/org/storeservice/store-api" -name '*-javadoc.jar' | head -n 1)
page=$(unzip -p "$javadoc" org.storeservice.api/org/storeservice/api/Store.html)
grep -q 'Licensed under the <a href="https://www.apache.org/licenses/LICENSE-2.0">Apache License' <<< "$page" \
    || fail "the javadoc's footer does not state the licence ($javadoc)"

mkdir -p "$work/host/src/main/java/com/example"
python3 - "$root/docs/embedding.md" "$work/host/pom.xml" "$version" "file://$work/repo" <<'EOF'
import re, sys
page, pom_path, version, url = sys.argv[1:]
blocks = re.findall(r"```xml\n(.*?)```", open(page, encoding="utf-8").read(), re.S)
pom, repositories = blocks[0], blocks[1]
assert "<artifactId>store-bom</artifactId>" in pom and "<scope>import</scope>" in pom, "the first block imports no BOM"
assert "<repositories>" in repositories, "the second block names no repository"
pom = re.sub(r"(<artifactId>store-bom</artifactId>\s*<version>)[^<]*(</version>)", r"\g<1>" + version + r"\g<2>", pom)
repositories = re.sub(r"<url>[^<]*</url>", "<url>" + url + "</url>", repositories)
pom = pom.replace("  <dependencyManagement>", repositories.strip() + "\n  <dependencyManagement>", 1)
open(pom_path, "w", encoding="utf-8").write(pom)
EOF
cat > "$work/host/src/main/java/com/example/Host.java" <<'EOF'
package com.example;

import java.net.URI;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.Status;
import org.storeservice.api.Store;
import org.storeservice.api.StoreLimits;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.jetty.StoreServer;

public class Host {
    public static void main(String[] args) throws Exception {
        try (Storage storage = Storages.open("sqlite:" + args[0])) { // store-jdbc's backend, found by its URI
            Store store = DefaultStore.builder(storage)
                    .limits(StoreLimits.builder().maxKeyLength(256).maxValueBytes(16 << 20).build())
                    .overwritePolicy(OverwritePolicy.REPLACE)
                    .build();
            Status status = store.writeString("greeting", "hello");
            System.out.println(status + " " + storage.get("greeting").orElseThrow().text());
        }
        try (StoreServer server = StoreServer.builder().port(0).storageUri("memory:").build().start()) {
            URI endpoint = server.endpointUri();
            System.out.println(endpoint.getPath());
        }
    }
}
EOF
say "building a host application from docs/embedding.md's pom.xml"
cd "$work/host"
mvn -B -ntp -q -Dmaven.repo.local="$work/m2" package dependency:build-classpath -Dmdep.outputFile=classpath.txt \
    || fail "the host application does not build"
output=$(java -cp "target/classes:$(cat classpath.txt)" com.example.Host "$work/host.db" 2>/dev/null)
[ "$output" = "$(printf 'SUCCESS hello\n/API/Store.asmx')" ] || fail "the host application printed: $output"
say "store-bom imported, the modules without versions, from a repository in a directory: built and ran"
