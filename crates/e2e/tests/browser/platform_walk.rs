//! Every page and every action of the console against a stand-in of the production platform
//! that answers exactly the operations of its API document (a sample of each success answer,
//! every field filled, each page again with every alternative of every `oneOf` its answers hold)
//! and 404 for anything else. A page or an action fails the walk when the
//! console sends a request the document does not have (other than this server's enhancements,
//! each tried at most once and then given up quietly), or shows an error.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use contract::stand_in::{ids, Condition};
use contract::{Document, Fields, StandIn};
use e2e::Browser;

use crate::stand_in::{serve, sign_in};

/// Routes of the reference server that the console uses when the API answers them, and gives up
/// on a 404 or a 405 (README, "Against the production platform"): `(method, template)`, `*` for
/// an id.
const ENHANCEMENTS: &[(&str, &str)] = &[
    ("GET", "/organization/*/currentRole"),
    ("POST", "/*/*/environmentVariable/bulk"),
    ("POST", "/organization/*/webhook/*/test"),
    ("GET", "/organization/*/webhook/*/delivery"),
    ("GET", "/*/*/autoDeploy"),
    ("GET", "/*/*/commitChanges"),
    ("GET", "/environment/*/previews"),
];

/// What the page shows when something failed.
const ERRORS_SHOWN: &str = ".notice--error, .toast--error, .banner--error";

fn enhancement(method: &str, path: &str) -> Option<&'static str> {
    let path = path.split('?').next().unwrap_or(path);
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    ENHANCEMENTS
        .iter()
        .find(|(wanted, template)| {
            let parts: Vec<&str> = template.trim_matches('/').split('/').collect();
            *wanted == method
                && parts.len() == segments.len()
                && parts
                    .iter()
                    .zip(&segments)
                    .all(|(part, segment)| *part == "*" || part == segment)
        })
        .map(|(_, template)| *template)
}

struct Walk {
    browser: Browser,
    stand_in: Arc<StandIn>,
    /// What went wrong, by page or action.
    failures: Vec<String>,
    /// Where each enhancement was asked for.
    enhancements: BTreeMap<&'static str, Vec<String>>,
    /// The document's operations the console used.
    used: std::collections::BTreeSet<String>,
    pages: (usize, usize),
    actions: (usize, usize),
    /// The pages whose answers hold alternatives (`oneOf`, `anyOf`), with the operations they
    /// read that hold some and how many: each is walked again with the other alternatives.
    with_alternatives: Vec<PageWithAlternatives>,
}

/// A page whose answers hold alternatives: its name, its address, and each operation it read
/// (`METHOD template`) with the most alternatives one of that answer's lists holds and whether it
/// is the page's own (read at an address holding the last id of the page's).
struct PageWithAlternatives {
    name: String,
    path: String,
    reads: BTreeMap<String, (usize, bool)>,
}

impl PageWithAlternatives {
    /// What the page shows in its answers' `alternative`: each operation answering with it, named
    /// with the page for its own (a page shows every shape of what it is about) and alone for
    /// what it reads for context (the switcher's list, the clusters: one page shows each shape).
    fn shows(&self, alternative: usize) -> Vec<(String, usize, Option<String>)> {
        self.reads
            .iter()
            .filter(|(_, (count, _))| alternative < *count)
            .map(|(operation, (_, own))| {
                let page = own.then(|| self.name.clone());
                (operation.clone(), alternative, page)
            })
            .collect()
    }
}

/// The last id of a page's address (`…/service/{id}/settings` → the service's).
fn last_id(path: &str) -> Option<&str> {
    path.split('/')
        .rfind(|segment| uuid::Uuid::parse_str(segment).is_ok())
}

impl Walk {
    /// What the stand-in saw since the last check, outside the document and its enhancements,
    /// and the errors the page shows now.
    async fn problems(&mut self, during: &str) -> anyhow::Result<Vec<String>> {
        settle().await;
        self.problems_seen(during).await
    }

    /// `problems`, without waiting for late answers first.
    async fn problems_seen(&mut self, during: &str) -> anyhow::Result<Vec<String>> {
        let mut problems = Vec::new();
        for seen in self.stand_in.seen() {
            if let Some(operation) = &seen.operation {
                self.used.insert(format!("{} {operation}", seen.method));
                continue;
            }
            match enhancement(&seen.method, &seen.path) {
                Some(template) => self
                    .enhancements
                    .entry(template)
                    .or_default()
                    .push(during.to_string()),
                None => problems.push(format!("sent {} {}", seen.method, seen.path)),
            }
        }
        self.stand_in.clear_seen();
        for shown in self
            .browser
            .client
            .find_all(fantoccini::Locator::Css(ERRORS_SHOWN))
            .await?
        {
            let text = shown.text().await.unwrap_or_default();
            if !text.trim().is_empty() {
                problems.push(format!("shows “{}”", text.trim().replace('\n', " ")));
            }
        }
        Ok(problems)
    }

    async fn page(&mut self, name: &str, path: &str) -> anyhow::Result<()> {
        self.stand_in.clear_seen();
        self.browser.open(path).await?;
        let loaded = async {
            self.browser.find("main h1").await?;
            self.browser.wait_until_gone(".skeleton").await
        }
        .await;
        settle().await;
        if self.stand_in.alternative() == 0 {
            let own = last_id(path);
            let reads: BTreeMap<String, (usize, bool)> = self
                .stand_in
                .seen()
                .iter()
                .filter_map(|seen| {
                    let template = seen.operation.as_deref()?;
                    let count = self.stand_in.alternatives_of(&seen.method, template);
                    let is_own = own.is_some_and(|id| seen.path.contains(id));
                    (count > 1).then(|| (format!("{} {template}", seen.method), (count, is_own)))
                })
                .collect();
            if !reads.is_empty() {
                self.with_alternatives.push(PageWithAlternatives {
                    name: name.to_string(),
                    path: path.to_string(),
                    reads,
                });
            }
        }
        let mut problems = self.problems_seen(name).await?;
        if let Err(error) = loaded {
            problems.push(format!("never loaded: {error:#}"));
        }
        self.pages.1 += 1;
        if problems.is_empty() {
            self.pages.0 += 1;
        } else {
            self.failures
                .push(format!("page {name} ({path}): {}", problems.join("; ")));
            self.browser.screenshot(&format!("walk-{name}")).await?;
        }
        Ok(())
    }

    /// Presses what `press` presses on the page open now, then checks what was sent and shown.
    async fn action<F>(&mut self, name: &str, press: F) -> anyhow::Result<()>
    where
        F: AsyncFnOnce(&Browser) -> anyhow::Result<()>,
    {
        // What came since the last look (the page or action before settled then) is not lost.
        let mut problems = self.problems_seen(&format!("before {name}")).await?;
        let pressed = press(&self.browser).await;
        problems.extend(self.problems(name).await?);
        if let Err(error) = pressed {
            problems.push(format!("could not be pressed: {error:#}"));
        }
        self.actions.1 += 1;
        if problems.is_empty() {
            self.actions.0 += 1;
        } else {
            self.failures
                .push(format!("action {name}: {}", problems.join("; ")));
            self.browser
                .screenshot(&format!("walk-action-{}", name.replace(' ', "-")))
                .await?;
        }
        // Toasts of one action are not the next one's.
        for close in self
            .browser
            .client
            .find_all(fantoccini::Locator::Css(".toast__close"))
            .await?
        {
            let _ = close.click().await;
        }
        Ok(())
    }
}

/// Lets late answers and polls land before we look.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(600)).await;
}

/// Clicks the button of the page's actions labelled `label`.
async fn press(browser: &Browser, label: &str) -> anyhow::Result<()> {
    browser.click_button(label).await
}

/// Clicks `label` among the page's actions, waits until the review of what it changes is shown
/// (its reads are the document's too), then deploys.
async fn press_reviewed(browser: &Browser, label: &str) -> anyhow::Result<()> {
    browser.click_button(label).await?;
    browser
        .wait_for_text("dialog.deploy-review[open]", "Settings and variables")
        .await?;
    browser
        .click("dialog.deploy-review[open] .confirm__actions .button--primary")
        .await
}

/// Clicks `label` among the page's actions, then the confirmation's button.
async fn press_confirmed(browser: &Browser, label: &str) -> anyhow::Result<()> {
    browser.click_button(label).await?;
    browser.accept_confirmation().await
}

/// Opens the page's "New …" dialog `opener`, fills `fields` (`(css, value)`) and sends the form.
async fn create_in_dialog(
    browser: &Browser,
    opener: &str,
    fields: &[(&str, &str)],
) -> anyhow::Result<()> {
    browser.open_new(opener).await?;
    for (css, value) in fields {
        browser.fill(css, value).await?;
    }
    browser
        .click("dialog.new-dialog[open] button[type=submit]")
        .await?;
    browser.wait_until_gone("dialog.new-dialog[open]").await
}

#[tokio::test(flavor = "multi_thread")]
async fn every_page_and_action_uses_only_the_documents_operations() -> anyhow::Result<()> {
    let stand_in = Arc::new(StandIn::new(Document::production(), Fields::All));
    let address = serve(stand_in.clone()).await?;
    let browser = Browser::start(20.0).await?;
    sign_in(&browser, address).await?;
    let mut walk = Walk {
        browser,
        stand_in: stand_in.clone(),
        failures: Vec::new(),
        enhancements: BTreeMap::new(),
        used: std::collections::BTreeSet::new(),
        pages: (0, 0),
        actions: (0, 0),
        with_alternatives: Vec::new(),
    };
    // What signing in asks is answered before the first page reloads the app: an enhancement
    // asked then and answered after a reload would be asked again, rightly.
    let at_sign_in = walk.problems("sign-in").await?;
    walk.failures.extend(at_sign_in);
    let org = format!("/organization/{}", ids::ORGANIZATION);
    let environment = format!(
        "{org}/project/{}/environment/{}",
        ids::PROJECT,
        ids::ENVIRONMENT
    );

    let mut pages = vec![
        ("organization".to_string(), format!("{org}/overview")),
        ("fleet".into(), format!("{org}/fleet")),
        ("clusters".into(), format!("{org}/clusters")),
        (
            "cluster".into(),
            format!("{org}/cluster/{}/overview", ids::CLUSTER),
        ),
        (
            "cluster-advanced-settings".into(),
            format!("{org}/cluster/{}/advanced-settings", ids::CLUSTER),
        ),
        ("audit-log".into(), format!("{org}/audit-log")),
        ("timeline".into(), format!("{org}/timeline")),
        ("alerts".into(), format!("{org}/alerts")),
        (
            "project".into(),
            format!("{org}/project/{}/overview", ids::PROJECT),
        ),
        ("environment".into(), format!("{environment}/services")),
        (
            "environment-deployments".into(),
            format!("{environment}/deployments"),
        ),
        (
            "environment-timeline".into(),
            format!("{environment}/timeline"),
        ),
        (
            "environment-variables".into(),
            format!("{environment}/variables"),
        ),
        (
            "environment-settings".into(),
            format!("{environment}/settings"),
        ),
    ];
    for settings in e2e::SETTINGS_PAGES {
        pages.push((
            format!("settings-{settings}"),
            format!("{org}/settings/{settings}"),
        ));
    }
    for (kind, _, id) in ids::SERVICES {
        for tab in e2e::SERVICE_TABS {
            if kind == "database" && ["variables", "advanced-settings"].contains(&tab) {
                continue;
            }
            pages.push((
                format!("{kind}-{tab}"),
                format!("{environment}/service/{id}/{tab}"),
            ));
        }
    }
    for (name, path) in &pages {
        walk.page(name, path).await?;
    }
    // Every alternative of every `oneOf` the pages read, in turn: a page reading only the
    // first would miss an answer's other shapes (credentials of another kind, a chart from a
    // repository rather than git, and what the page reads further for it). A page shows each
    // shape of its own records; a record read for context (the environment's services in the
    // switcher of every service page) is shown in each shape by the first page that reads it.
    let mut shown = std::collections::BTreeSet::new();
    for page in std::mem::take(&mut walk.with_alternatives) {
        let most = page
            .reads
            .values()
            .map(|(count, _)| *count)
            .max()
            .unwrap_or(0);
        for alternative in 1..most {
            let shows = page.shows(alternative);
            if shows.iter().all(|what| shown.contains(what)) {
                continue;
            }
            shown.extend(shows);
            stand_in.set_alternative(alternative);
            walk.page(
                &format!("{}, alternative {alternative}", page.name),
                &page.path,
            )
            .await?;
        }
    }
    stand_in.set_alternative(0);
    // The document's samples of the monitoring answers are no Prometheus or Loki bodies: the
    // Monitoring tab and the logs say there is no data, and nothing failed.
    let (_, _, application) = ids::SERVICES[0];
    for (tab, said) in [
        ("monitoring", "hold no series of this service"),
        ("logs", "No line printed in this range"),
    ] {
        let path = format!("{environment}/service/{application}/{tab}");
        walk.browser.open(&path).await?;
        if let Err(error) = walk.browser.wait_for_text("main", said).await {
            walk.failures
                .push(format!("page {tab} ({path}) says no data badly: {error:#}"));
        }
    }

    // Each kind's actions: deployed, then running (a cancel stops its environment's
    // deployment), then waiting in the queue (a cancel takes its request out).
    for (kind, service_type, id) in ids::SERVICES {
        let overview = format!("{environment}/service/{id}/overview");
        walk.page(&format!("{kind}-actions"), &overview).await?;
        walk.action(&format!("{kind} deploy"), async |b| {
            press_reviewed(b, "Deploy").await
        })
        .await?;
        walk.action(&format!("{kind} redeploy"), async |b| {
            press_reviewed(b, "Redeploy").await
        })
        .await?;
        if ["APPLICATION", "CONTAINER", "DATABASE"].contains(&service_type) {
            walk.action(&format!("{kind} restart"), async |b| {
                press(b, "Restart").await
            })
            .await?;
        }
        if service_type != "TERRAFORM" {
            walk.action(&format!("{kind} stop"), async |b| press(b, "Stop").await)
                .await?;
        } else {
            walk.action("terraform plan", async |b| press(b, "Plan only").await)
                .await?;
        }
        walk.action(&format!("{kind} uninstall"), async |b| {
            press_confirmed(b, "Uninstall").await
        })
        .await?;
        stand_in.set_condition(Condition::Deploying);
        walk.page(&format!("{kind}-running"), &overview).await?;
        walk.action(&format!("{kind} cancel while running"), async |b| {
            press_confirmed(b, "Cancel deployment").await
        })
        .await?;
        stand_in.set_condition(Condition::Queued);
        walk.page(&format!("{kind}-queued"), &overview).await?;
        walk.action(&format!("{kind} cancel while queued"), async |b| {
            press(b, "Cancel").await
        })
        .await?;
        stand_in.set_condition(Condition::Deployed);
    }

    // The environment's actions, and its cancel while a deployment runs.
    walk.page("environment-actions", &format!("{environment}/services"))
        .await?;
    walk.action("environment restart all", async |b| {
        press(b, "Restart all").await
    })
    .await?;
    walk.action("environment redeploy all", async |b| {
        press(b, "Redeploy all").await
    })
    .await?;
    walk.action("environment stop all", async |b| {
        press_confirmed(b, "Stop all").await
    })
    .await?;
    walk.action("environment deploy all", async |b| {
        // A service's line opened: its own review's reads.
        b.click_button("Deploy all").await?;
        b.click("dialog.deploy-review[open] details summary")
            .await?;
        b.wait_for_text(
            "dialog.deploy-review[open] details",
            "Settings and variables",
        )
        .await?;
        b.click("dialog.deploy-review[open] .confirm__actions .button--primary")
            .await
    })
    .await?;
    stand_in.set_condition(Condition::Deploying);
    walk.page("environment-running", &format!("{environment}/services"))
        .await?;
    walk.action("environment cancel", async |b| {
        press_confirmed(b, "Cancel deployment").await
    })
    .await?;
    stand_in.set_condition(Condition::Deployed);

    // An environment downloaded as Terraform manifests.
    walk.page("environment-export", &format!("{environment}/settings"))
        .await?;
    walk.action("environment exported", async |b| {
        b.click_text("main button", "Download as Terraform").await
    })
    .await?;

    // A managed database's form: the types its cloud manages, the instances of one.
    walk.page("new-managed-database", &format!("{environment}/services"))
        .await?;
    walk.action("managed database instances offered", async |b| {
        b.open_new("New service").await?;
        b.click("input[name=service-kind][value=database]").await?;
        b.choose("#field-mode", "MANAGED").await?;
        b.choose("#field-type", "REDIS").await?;
        b.find("#field-instance_type-suggestions option[value='db.t3.medium']")
            .await
            .map(drop)
    })
    .await?;

    // A lifecycle job started from a template of the environment's cloud, made with the
    // variables the template reads.
    walk.page("new-lifecycle-job", &format!("{environment}/services"))
        .await?;
    walk.action("lifecycle job from a template", async |b| {
        b.open_new("New service").await?;
        b.click("input[name=service-kind][value=job]").await?;
        b.choose("#field-job_type", "LIFECYCLE").await?;
        let template = b
            .find("#field-template option:nth-child(2)")
            .await?
            .attr("value")
            .await?
            .unwrap_or_default();
        b.choose("#field-template", &template).await?;
        // The document's sample template is not one a job may be made of as it is (a
        // Dockerfile FROM nothing, events of no environment's, no resources): it is mended.
        b.fill("#field-source-docker-dockerfile_raw", "FROM alpine:3.20")
            .await?;
        let starts = "input[name=schedule][value=on_start]";
        if !b.find(starts).await?.is_selected().await? {
            b.click(starts).await?;
        }
        for (field, value) in [
            ("#field-cpu", "500"),
            ("#field-memory", "512"),
            ("#field-max_duration_seconds", "600"),
        ] {
            b.fill(field, value).await?;
        }
        b.fill("#field-name", "infra").await?;
        b.fill(
            "#field-source-docker-git_repository-url",
            "https://git.example.com/acme/infra.git",
        )
        .await?;
        b.click("form[aria-label='Create a job'] button[type=submit]")
            .await?;
        b.wait_for_text(".toast--success", "created")
            .await
            .map(drop)
    })
    .await?;

    // A cluster's lock lifted; a token for kubectl.
    walk.page(
        "cluster-lock",
        &format!("{org}/cluster/{}/overview", ids::CLUSTER),
    )
    .await?;
    walk.action("cluster unlock", async |b| {
        b.click_text("main button", "Lift the lock").await
    })
    .await?;
    walk.action("cluster token", async |b| {
        b.click_text("main button", "Get a token").await
    })
    .await?;

    // Labels and annotations groups added.
    walk.page(
        "labels-annotations-actions",
        &format!("{org}/settings/labels-annotations"),
    )
    .await?;
    walk.action("labels group created", async |b| {
        create_in_dialog(
            b,
            "New labels group",
            &[
                ("#labels-field-name", "team"),
                ("#field-labels", "team=web"),
            ],
        )
        .await
    })
    .await?;
    walk.action("annotations group created", async |b| {
        create_in_dialog(
            b,
            "New annotation group",
            &[
                ("#annotations-field-name", "scrape"),
                ("#field-annotations", "prometheus.io/scrape=true"),
            ],
        )
        .await
    })
    .await?;

    // A webhook's deliveries, from the platform's list of events sent; no test event offered.
    walk.page("webhooks-actions", &format!("{org}/settings/webhooks"))
        .await?;
    walk.action("webhook deliveries", async |b| {
        b.click_text("main button", "Deliveries").await?;
        b.find(".deliveries table, .deliveries p").await?;
        if b.find_now("button[aria-label^='Send a test event']")
            .await
            .is_ok()
        {
            anyhow::bail!("a test event is offered by a platform that has none");
        }
        Ok(())
    })
    .await?;

    // An application's variables: one added, a ticked one deleted (one request a variable on the
    // platform), a .env imported through the service.
    let variables = format!("{environment}/service/{}/variables", ids::APPLICATION);
    walk.page("application-variables-actions", &variables)
        .await?;
    walk.action("variable added", async |b| {
        b.fill("#field-key", "WALKED").await?;
        b.fill("#field-value", "1").await?;
        b.click("form[aria-label='Add a variable'] button[type=submit]")
            .await
    })
    .await?;
    walk.action("ticked variables deleted", async |b| {
        b.click("input[type=checkbox][aria-label^='Tick']").await?;
        b.click_text(".selection-bar button", "Delete (1)").await?;
        b.accept_confirmation().await
    })
    .await?;
    walk.action("variables imported", async |b| {
        b.open_new("Import .env…").await?;
        b.fill("#import-text", "IMPORTED=1").await?;
        b.click("dialog.new-dialog[open] button[type=submit]").await
    })
    .await?;

    walk.browser.close().await?;
    println!(
        "pages {} clean of {}, actions {} on documented routes of {}",
        walk.pages.0, walk.pages.1, walk.actions.0, walk.actions.1
    );
    println!(
        "the console used {} operations of the document",
        walk.used.len()
    );
    for (template, during) in &walk.enhancements {
        println!("enhancement {template}: asked during {}", during.join(", "));
    }
    let repeated: Vec<String> = walk
        .enhancements
        .iter()
        .filter(|(_, during)| during.len() > 1)
        .map(|(template, during)| {
            format!("{template} asked again after a 404: {}", during.join(", "))
        })
        .collect();
    walk.failures.extend(repeated);
    assert!(walk.failures.is_empty(), "{}", walk.failures.join("\n"));
    Ok(())
}
