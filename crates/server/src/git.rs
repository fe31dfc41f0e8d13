//! Real git data, read with the `git` binary from repositories this server can reach: a local
//! path or a `file://` URL naming a repository under one of the folders it was given
//! (`Repositories`). Remote repositories are out of reach (no network here): asking for them is
//! an error that says so, never an empty list.
//!
//! What a repository holds is untrusted: git is pointed at the repository's own `.git` (never
//! left to look for one above it), told to read no configuration but the repository's, its
//! paths read literally and its revisions only as names (`platform_api::rules`); what it prints
//! is read up to a bound and within a deadline, and a file's size is known before it is read.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, LazyLock, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use platform_api::{Commit, CommitChanges};

use crate::offload::{Offload, Priority};
use crate::untrusted::Limits;

/// At most this many commits are listed (spec 8).
pub const COMMITS_MAX: usize = 100;

/// At most this many repositories are listed.
pub const REPOSITORIES_MAX: usize = 500;

/// The most a git command may print: a listing of a large repository's files, a log of long
/// messages. Past it the command is stopped and the read refused.
const OUTPUT_MAX_BYTES: usize = 8 * 1024 * 1024;

/// The longest a git command may run before it is stopped.
const GIT_DEADLINE: Duration = Duration::from_secs(10);

/// Reads of repositories run a few at once, each on a thread of its own at the lowest priority,
/// which the git commands it starts inherit: a caller's reads take the CPU the server's workers
/// leave. Waited for at most `READ_DEADLINE` (a read may run many commands).
static READERS: LazyLock<Offload> =
    LazyLock::new(|| Offload::new("git", 4, 2 * 1024 * 1024, Priority::Lowest));
const READ_DEADLINE: Duration = Duration::from_secs(30);

/// `work` (reads of a repository) on a reader's thread; `Busy` when none was free in time.
pub async fn read<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, GitError> + Send + 'static,
) -> Result<T, GitError> {
    READERS
        .run(READ_DEADLINE, work)
        .await
        .map_err(|_| GitError::Busy)?
}

/// Why commits could not be read.
#[derive(Debug)]
pub enum GitError {
    /// The URL is not a local path or `file://` URL.
    Unreachable(String),
    /// A local path outside the allowed folders, or one that does not exist: the same words for
    /// both, so that callers cannot learn what the server's disk holds.
    Refused(String),
    /// `git` failed, or the path is not a repository, or the commit is unknown.
    Failed(String),
    /// A file, or the files read together, past their limit: the message names them.
    TooLarge(String),
    /// No reader was free in time.
    Busy,
}

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GitError::Unreachable(url) => write!(
                f,
                "This server cannot reach the repository {url}: it reads only local paths and file:// URLs."
            ),
            GitError::Refused(url) => write!(
                f,
                "This server does not read the repository {url}: it reads only the repositories under the folders it was given."
            ),
            GitError::Failed(reason) => write!(f, "The repository could not be read: {reason}"),
            GitError::TooLarge(message) => f.write_str(message),
            GitError::Busy => f.write_str("The server's repository readers are all busy."),
        }
    }
}

impl std::error::Error for GitError {}

impl From<GitError> for crate::error::ApiError {
    fn from(error: GitError) -> Self {
        let code = match error {
            GitError::Busy => return crate::error::ApiError::busy(),
            GitError::Unreachable(_) | GitError::Refused(_) => "REPOSITORY_UNREACHABLE",
            GitError::Failed(_) => "REPOSITORY_ERROR",
            GitError::TooLarge(_) => "CONTENT_TOO_LARGE",
        };
        crate::error::ApiError::unanswerable(code, error.to_string())
    }
}

/// The local path a repository URL names: an absolute path, or a `file://` URL of one.
fn local_path(url: &str) -> Option<PathBuf> {
    let path = url.strip_prefix("file://").unwrap_or(url);
    path.starts_with('/').then(|| PathBuf::from(path))
}

/// The folders whose repositories the server reads for its callers (`--git-root`, and the
/// demo's repositories).
#[derive(Clone, Debug, Default)]
pub struct Repositories {
    roots: Vec<PathBuf>,
}

/// A repository this server reads: a folder under one of the allowed folders, links resolved,
/// holding its own `.git` folder (not a link, not a file pointing elsewhere). Git is pointed at
/// that `.git`, so that a folder inside another repository never reads the one around it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Repository {
    folder: PathBuf,
}

impl Repository {
    /// The repository's folder (its work tree).
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// `folder` as a repository when it holds its own `.git` folder.
    fn at(folder: PathBuf) -> Option<Repository> {
        let git = std::fs::symlink_metadata(folder.join(".git")).ok()?;
        git.is_dir().then_some(Repository { folder })
    }
}

/// Where a repository is, for this server.
#[derive(Debug, PartialEq)]
pub enum Location {
    /// Not on this machine: out of reach.
    Remote,
    /// A repository under one of the allowed folders.
    Local(Repository),
}

impl Repositories {
    pub fn new(roots: Vec<PathBuf>) -> Self {
        Self { roots }
    }

    /// The folder `url` names, links resolved, when it is under one of the allowed folders;
    /// `None` for a remote URL.
    fn allowed_folder(&self, url: &str) -> Result<Option<PathBuf>, GitError> {
        let Some(path) = local_path(url) else {
            return Ok(None);
        };
        let refused = || GitError::Refused(url.to_string());
        let real = std::fs::canonicalize(&path).map_err(|_| refused())?;
        let inside = self
            .roots
            .iter()
            .filter_map(|root| std::fs::canonicalize(root).ok())
            .any(|root| real.starts_with(root));
        inside.then_some(Some(real)).ok_or_else(refused)
    }

    /// Where the repository at `url` is; a local path outside the allowed folders (after its
    /// links are resolved), one that does not exist, or one that is not itself a repository is
    /// refused, in the same words.
    pub fn locate(&self, url: &str) -> Result<Location, GitError> {
        match self.allowed_folder(url)? {
            None => Ok(Location::Remote),
            Some(folder) => Repository::at(folder)
                .map(Location::Local)
                .ok_or_else(|| GitError::Refused(url.to_string())),
        }
    }

    /// The local folder at `url` (a helm repository's, which need not be a git repository): a
    /// remote one is out of reach, one outside the allowed folders refused.
    pub fn folder(&self, url: &str) -> Result<PathBuf, GitError> {
        self.allowed_folder(url)?
            .ok_or_else(|| GitError::Unreachable(url.to_string()))
    }

    /// The repositories directly under the allowed folders, by folder name (the first folder's
    /// when two share one), at most `REPOSITORIES_MAX`.
    pub fn listed(&self) -> Vec<(String, Repository)> {
        let mut found: Vec<(String, Repository)> = Vec::new();
        for root in self
            .roots
            .iter()
            .filter_map(|root| std::fs::canonicalize(root).ok())
        {
            let Ok(entries) = std::fs::read_dir(&root) else {
                continue;
            };
            let mut repositories: Vec<(String, Repository)> = entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| !path.is_symlink())
                .filter_map(|path| {
                    let name = path.file_name()?.to_str()?.to_string();
                    Some((name, Repository::at(path)?))
                })
                .collect();
            repositories.sort_by(|a, b| a.0.cmp(&b.0));
            for (name, repository) in repositories {
                if found.len() < REPOSITORIES_MAX && found.iter().all(|(n, _)| *n != name) {
                    found.push((name, repository));
                }
            }
        }
        found
    }

    /// The local repository at `url`: a remote one is out of reach.
    pub fn local(&self, url: &str) -> Result<Repository, GitError> {
        match self.locate(url)? {
            Location::Local(repository) => Ok(repository),
            Location::Remote => Err(GitError::Unreachable(url.to_string())),
        }
    }
}

/// The text of the file `name` in the local repository `folder`, if it is a regular file of at
/// most `most` bytes: opened without following a link (one could point outside the allowed
/// folders) and without waiting on a pipe or a device, then checked to be a regular file.
pub fn read_plain_file(folder: &Path, name: &str, most: u64) -> Option<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(folder.join(name))
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > most {
        return None;
    }
    let mut text = String::new();
    file.take(most).read_to_string(&mut text).ok()?;
    Some(text)
}

/// What to list: from the tip of `branch` (HEAD when none), or only the commits after (older
/// than) `start_after`, or only `only`.
pub struct CommitQuery<'a> {
    pub branch: Option<&'a str>,
    pub start_after: Option<&'a str>,
    pub only: Option<&'a str>,
}

/// The commits of `repository`, newest first, at most `COMMITS_MAX`.
pub fn commits(repository: &Repository, query: &CommitQuery) -> Result<Vec<Commit>, GitError> {
    let (revision, limit) = match (query.only, query.start_after) {
        (Some(commit), _) => (revision_of(Some(commit))?.to_string(), 1),
        (None, Some(start)) => (format!("{}^", revision_of(Some(start))?), COMMITS_MAX),
        (None, None) => (revision_of(query.branch)?.to_string(), COMMITS_MAX),
    };
    let log = run(git(repository)
        .args(["log", "--decorate=short", &format!("-n{limit}")])
        .arg("--format=%H%x1f%an%x1f%aI%x1f%D%x1f%s")
        .arg(&revision)
        .arg("--"))?;
    Ok(log.lines().filter_map(parse_commit).collect())
}

/// An author of commits: their name and email, and the dates of their first and last commit
/// among those read.
pub struct Author {
    pub name: String,
    pub email: String,
    pub first: DateTime<Utc>,
    pub last: DateTime<Utc>,
}

/// The authors of the last `COMMITS_MAX` commits at the tip of `branch`, each once, most recent
/// first.
pub fn contributors(
    repository: &Repository,
    branch: Option<&str>,
) -> Result<Vec<Author>, GitError> {
    let revision = revision_of(branch)?;
    let log = run(git(repository)
        .args(["log", &format!("-n{COMMITS_MAX}")])
        .arg("--format=%an%x1f%ae%x1f%aI")
        .arg(revision)
        .arg("--"))?;
    let mut authors: Vec<Author> = Vec::new();
    for line in log.lines() {
        let mut fields = line.split('\u{1f}');
        let (Some(name), Some(email), Some(date)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let Ok(at) = DateTime::parse_from_rfc3339(date) else {
            continue;
        };
        let at = at.with_timezone(&Utc);
        match authors.iter_mut().find(|author| author.email == email) {
            // Newest first: each older commit moves the author's first one back.
            Some(author) => author.first = at,
            None => authors.push(Author {
                name: name.to_string(),
                email: email.to_string(),
                first: at,
                last: at,
            }),
        }
    }
    Ok(authors)
}

/// The commits with these full ids, in one call; an error when one is not in the repository.
pub fn describe(repository: &Repository, ids: &[String]) -> Result<Vec<Commit>, GitError> {
    for id in ids {
        commit_id(id)?;
    }
    let log = run(git(repository)
        .args(["log", "--no-walk=unsorted", "--decorate=short"])
        .arg("--format=%H%x1f%an%x1f%aI%x1f%D%x1f%s")
        .args(ids)
        .arg("--"))?;
    Ok(log.lines().filter_map(parse_commit).collect())
}

/// The full id of `revision` (a commit id, whole or abbreviated, a tag, a branch) in
/// `repository`.
pub fn resolve(repository: &Repository, revision: &str) -> Result<String, GitError> {
    let query = CommitQuery {
        branch: None,
        start_after: None,
        only: Some(revision),
    };
    commits(repository, &query)?
        .into_iter()
        .next()
        .map(|commit| commit.git_commit_id)
        .ok_or_else(|| GitError::Failed(format!("{revision} names no commit")))
}

/// The branches of `repository`, by name, and the one its HEAD is on (`None` when detached).
pub fn branches(repository: &Repository) -> Result<(Vec<String>, Option<String>), GitError> {
    let listing =
        run(git(repository).args(["for-each-ref", "--format=%(refname:short)", "refs/heads/"]))?;
    let head = run(git(repository).args(["branch", "--show-current"]))?;
    let head = Some(head.trim().to_string()).filter(|head| !head.is_empty());
    Ok((listing.lines().map(str::to_string).collect(), head))
}

/// The paths that differ between the commits `from` and `to` of `repository`.
pub fn changed_paths(
    repository: &Repository,
    from: &str,
    to: &str,
) -> Result<Vec<String>, GitError> {
    commit_id(from)?;
    commit_id(to)?;
    let listing =
        run(git(repository).args(["diff", "--no-ext-diff", "--name-only", from, to, "--"]))?;
    Ok(listing.lines().map(str::to_string).collect())
}

/// The latest `count` commits of `branch` (HEAD when none), newest first, each with the paths
/// it changed from its first parent (every path it holds, for a root commit), in one call.
pub fn commits_with_changes(
    repository: &Repository,
    branch: Option<&str>,
    count: usize,
) -> Result<Vec<CommitChanges>, GitError> {
    let revision = revision_of(branch)?;
    let log = run(git(repository)
        .args([
            "log",
            "--decorate=short",
            "--first-parent",
            "-m",
            "--name-only",
        ])
        .arg(format!("-n{count}"))
        .arg("--format=%x1e%H%x1f%an%x1f%aI%x1f%D%x1f%s")
        .arg(revision)
        .arg("--"))?;
    Ok(log
        .split('\u{1e}')
        .filter_map(|record| {
            let mut lines = record.lines();
            let commit = parse_commit(lines.next()?)?;
            let changed_paths = lines
                .filter(|line| !line.is_empty())
                .map(str::to_string)
                .collect();
            Some(CommitChanges {
                commit,
                changed_paths,
            })
        })
        .collect())
}

/// A file of a commit's tree: its path in the repository and its size in bytes.
struct Listed {
    path: String,
    size: usize,
}

/// The files (blobs) of `revision` that `ls-tree` lists under `pathspec`, with their sizes.
fn listed_files(
    repository: &Repository,
    revision: &str,
    pathspec: &str,
    recursive: bool,
) -> Result<Vec<Listed>, GitError> {
    let mut command = git(repository);
    command.args(["ls-tree", "-z", "-l"]);
    if recursive {
        command.arg("-r");
    }
    let listing = run(command.args([revision, "--", pathspec]))?;
    Ok(listing
        .split('\0')
        .filter_map(|entry| {
            // `<mode> blob <object> <size>\t<path>`: a tree's or a submodule's size is `-`.
            let (header, path) = entry.split_once('\t')?;
            let mut fields = header.split_whitespace();
            let (_, kind, _, size) = (
                fields.next()?,
                fields.next()?,
                fields.next()?,
                fields.next()?,
            );
            (kind == "blob").then(|| Listed {
                path: path.to_string(),
                size: size.parse().unwrap_or(usize::MAX),
            })
        })
        .collect())
}

/// The text of the listed files at `revision` (a module's, a listing's), each within `limits`
/// and all together within `TERRAFORM_FILES_BYTES` and `TERRAFORM_FILES_MAX` files: refused
/// before any is read when they are not.
fn read_files(
    repository: &Repository,
    revision: &str,
    files: Vec<Listed>,
    limits: &Limits,
) -> Result<Vec<(String, String)>, GitError> {
    let (total, most_files) = (
        crate::untrusted::TERRAFORM_FILES_BYTES,
        crate::untrusted::TERRAFORM_FILES_MAX,
    );
    if files.len() > most_files {
        return Err(GitError::TooLarge(format!(
            "The folder holds {} such files: at most {most_files} are read together (the \
             server's limit).",
            files.len()
        )));
    }
    for file in &files {
        if let Some(message) = limits.too_large(&file.path, file.size) {
            return Err(GitError::TooLarge(message));
        }
    }
    let sum: usize = files.iter().map(|file| file.size).sum();
    if sum > total {
        return Err(GitError::TooLarge(format!(
            "These files are {} together: at most {} are read at once (the server's limit).",
            crate::untrusted::bytes(sum),
            crate::untrusted::bytes(total)
        )));
    }
    files
        .into_iter()
        .map(|file| {
            let content = read_blob(repository, revision, &file.path, file.size)?;
            Ok((file.path, content))
        })
        .collect()
}

/// The blob at `path` of `revision`, known to be `size` bytes long.
fn read_blob(
    repository: &Repository,
    revision: &str,
    path: &str,
    size: usize,
) -> Result<String, GitError> {
    run_bounded(
        git(repository)
            .arg("cat-file")
            .arg("blob")
            .arg(format!("{revision}:{path}")),
        size,
    )
}

/// The `.tfvars` files of `repository` under `root` (a path in the repository), at the tip of
/// `branch`: each file's path and content. Every one, or those `wanted` names, in its order
/// (each must exist).
pub fn tfvars_files(
    repository: &Repository,
    branch: Option<&str>,
    root: Option<&str>,
    wanted: Option<&[String]>,
) -> Result<Vec<(String, String)>, GitError> {
    let revision = revision_of(branch)?;
    let mut found = listed_files(repository, revision, &tree_path(root)?, true)?;
    found.retain(|file| file.path.ends_with(".tfvars"));
    let files = match wanted {
        None => found,
        Some(wanted) => wanted
            .iter()
            .map(|path| {
                let at = found
                    .iter()
                    .position(|file| file.path == *path)
                    .ok_or_else(|| {
                        GitError::Failed(format!("{path} is not a .tfvars file of {revision}"))
                    })?;
                Ok(Listed {
                    path: found[at].path.clone(),
                    size: found[at].size,
                })
            })
            .collect::<Result<_, GitError>>()?,
    };
    read_files(repository, revision, files, &crate::untrusted::TFVARS_FILE)
}

/// The file `file` below `root` at the tip of `branch` (HEAD when none): its text, or `None`
/// when that commit has no such file; refused past `limits` before it is read. An unknown
/// branch is an error.
pub fn file_at(
    repository: &Repository,
    branch: Option<&str>,
    root: Option<&str>,
    file: &str,
    limits: &Limits,
) -> Result<Option<String>, GitError> {
    let revision = revision_of(branch)?;
    let full = file_path(root, file)?;
    let listed = listed_files(repository, revision, &full, false)?;
    let Some(found) = listed.into_iter().find(|listed| listed.path == full) else {
        return Ok(None);
    };
    if let Some(message) = limits.too_large(&full, found.size) {
        return Err(GitError::TooLarge(message));
    }
    read_blob(repository, revision, &full, found.size).map(Some)
}

/// Whether the tip of `branch` (HEAD when none) has the file `file` below `root`; nothing of it
/// is read.
pub fn has_file(
    repository: &Repository,
    branch: Option<&str>,
    root: Option<&str>,
    file: &str,
) -> Result<bool, GitError> {
    let revision = revision_of(branch)?;
    let full = file_path(root, file)?;
    let listed = listed_files(repository, revision, &full, false)?;
    Ok(listed.iter().any(|listed| listed.path == full))
}

/// The path in the repository of `file` below `root`; refused when it would leave it.
fn file_path(root: Option<&str>, file: &str) -> Result<String, GitError> {
    let root = tree_path(root)?;
    let file = file.trim().trim_start_matches("./").trim_matches('/');
    if let Some(refused) = platform_api::rules::repository_path("file", file) {
        return Err(GitError::Failed(format!("{file} {}", refused.message)));
    }
    Ok(match root.as_str() {
        "." => file.to_string(),
        root => format!("{root}{file}"),
    })
}

/// The tip of `branch`, HEAD when none: a name, never an option or an expression of git's.
fn revision_of(branch: Option<&str>) -> Result<&str, GitError> {
    let revision = branch
        .map(str::trim)
        .filter(|b| !b.is_empty())
        .unwrap_or("HEAD");
    match platform_api::rules::git_revision("branch", revision) {
        Some(refused) => Err(GitError::Failed(format!("{revision} {}", refused.message))),
        None => Ok(revision),
    }
}

/// A full commit id, never anything git would read otherwise.
fn commit_id(id: &str) -> Result<(), GitError> {
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(GitError::Failed(format!("{id} is not a commit id")));
    }
    Ok(())
}

/// `root` (a path in the repository, `/infra`) as git's path below the top: `infra/`, or `.`;
/// refused when it would leave the repository.
fn tree_path(root: Option<&str>) -> Result<String, GitError> {
    let root = root.unwrap_or("/");
    if let Some(refused) = platform_api::rules::repository_path("root_path", root) {
        return Err(GitError::Failed(format!("{root} {}", refused.message)));
    }
    Ok(match root.trim().trim_matches('/') {
        "" => ".".to_string(),
        root => format!("{root}/"),
    })
}

/// The folders directly below `root` at the tip of `branch`, by name.
pub fn directories(
    repository: &Repository,
    branch: Option<&str>,
    root: Option<&str>,
) -> Result<Vec<String>, GitError> {
    let revision = revision_of(branch)?;
    let listing = run(git(repository)
        .args(["ls-tree", "-z", "-d", "--name-only", revision, "--"])
        .arg(tree_path(root)?))?;
    Ok(listing
        .split('\0')
        .filter(|line| !line.is_empty())
        .map(|line| line.rsplit('/').next().unwrap_or(line).to_string())
        .collect())
}

/// The `.tf` files directly below `root` at the tip of `branch` (a terraform module is one
/// folder): each file's path in the repository and its text.
pub fn terraform_files(
    repository: &Repository,
    branch: Option<&str>,
    root: Option<&str>,
) -> Result<Vec<(String, String)>, GitError> {
    let revision = revision_of(branch)?;
    let mut files = listed_files(repository, revision, &tree_path(root)?, false)?;
    files.retain(|file| file.path.ends_with(".tf"));
    read_files(
        repository,
        revision,
        files,
        &crate::untrusted::TERRAFORM_FILE,
    )
}

/// The output of a git command, at most `OUTPUT_MAX_BYTES`, or why it failed.
fn run(command: &mut Command) -> Result<String, GitError> {
    run_bounded(command, OUTPUT_MAX_BYTES)
}

/// The output of a git command, refused past `most` bytes, the command stopped past
/// `GIT_DEADLINE`. What it prints past the bound is read and dropped (so that it ends rather
/// than wait on a full pipe), and its errors are kept to their first line.
fn run_bounded(command: &mut Command, most: usize) -> Result<String, GitError> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| GitError::Failed(format!("git could not run: {error}")))?;
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(GitError::Failed(
            "git's output could not be read".to_string(),
        ));
    };
    let child = Arc::new(Mutex::new(child));
    let stop = watch(child.clone());
    let errors = std::thread::spawn(move || keep_first(stderr, 4096));
    let (output, printed) = keep_first(stdout, most);
    // The child has closed its output: it ends now, or the watch stops it at the deadline.
    let status = loop {
        let waited = child
            .lock()
            .map_err(|_| GitError::Failed("git".into()))?
            .try_wait();
        match waited {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(Duration::from_micros(200)),
            Err(error) => return Err(GitError::Failed(format!("git could not run: {error}"))),
        }
    };
    let stopped = stop.send(()).is_err();
    let (reason, _) = errors.join().unwrap_or_default();
    if stopped {
        return Err(GitError::Failed(format!(
            "git ran longer than {} s and was stopped",
            GIT_DEADLINE.as_secs()
        )));
    }
    if printed > most {
        return Err(GitError::TooLarge(format!(
            "The repository's answer is longer than {}: this server reads at most that much of \
             it at once.",
            crate::untrusted::bytes(most)
        )));
    }
    if !status.success() {
        let reason = String::from_utf8_lossy(&reason);
        return Err(GitError::Failed(
            reason.lines().next().unwrap_or("git failed").to_string(),
        ));
    }
    String::from_utf8(output).map_err(|_| GitError::Failed("a file is not UTF-8 text".to_string()))
}

/// Stops `child` at `GIT_DEADLINE` unless told it ended first: the sender's `send` fails when
/// the watch has stopped it.
fn watch(child: Arc<Mutex<Child>>) -> mpsc::Sender<()> {
    let (ended, told) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        if told.recv_timeout(GIT_DEADLINE) == Err(mpsc::RecvTimeoutError::Timeout) {
            // `kill` on a child already waited for sends no signal: no other process is hit.
            if let Ok(mut child) = child.lock() {
                let _ = child.kill();
            }
        }
    });
    ended
}

/// The first `most` bytes of `from` (and one more, to tell a longer output), and how many it
/// held in all: the rest is read to its end and dropped.
fn keep_first(from: impl Read, most: usize) -> (Vec<u8>, usize) {
    let mut from = from;
    let mut kept = Vec::new();
    let read = (&mut from)
        .take(most as u64 + 1)
        .read_to_end(&mut kept)
        .unwrap_or(0);
    let rest = std::io::copy(&mut from, &mut std::io::sink()).unwrap_or(0) as usize;
    (kept, read + rest)
}

/// `%H %an %aI %D %s` separated by unit separators.
fn parse_commit(line: &str) -> Option<Commit> {
    let mut fields = line.split('\u{1f}');
    let id = fields.next()?.to_string();
    let author = fields.next()?.to_string();
    let date = fields.next()?;
    let decorations = fields.next()?;
    let message = fields.next()?.to_string();
    let tag = decorations
        .split(", ")
        .find_map(|decoration| decoration.strip_prefix("tag: "))
        .map(str::to_string)
        .unwrap_or_default();
    Some(Commit {
        created_at: DateTime::parse_from_rfc3339(date).ok()?.with_timezone(&Utc),
        git_commit_id: id,
        tag,
        message,
        author_name: author,
        author_avatar_url: None,
        commit_page_url: None,
    })
}

/// `git` reading `repository`: pointed at its own `.git` (never one found above it), with no
/// configuration but the repository's (not the system's, not a global one: a repository's
/// files never configure git), no prompt, and paths read as they are written.
fn git(repository: &Repository) -> Command {
    let mut command = Command::new("git");
    command
        .arg("--git-dir")
        .arg(repository.folder.join(".git"))
        .current_dir(&repository.folder)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_LITERAL_PATHSPECS", "1")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE");
    command
}

/// `git` writing the repository at `path`, one this server makes (the demo's, the tests').
fn git_writing(path: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .arg("-C")
        .arg(path)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0");
    command
}

/// Creates a git repository at `path` with the given commits: each a message and files to write.
pub fn create_repository(path: &Path, commits: &[(&str, &[(&str, &str)])]) -> std::io::Result<()> {
    std::fs::create_dir_all(path)?;
    run_as_demo(path, &["init", "--quiet", "--initial-branch=main"])?;
    for (message, files) in commits {
        commit(path, message, files)?;
    }
    Ok(())
}

/// Writes `files` in the repository at `path` and commits them on its current branch.
pub fn commit(path: &Path, message: &str, files: &[(&str, &str)]) -> std::io::Result<()> {
    for (file, content) in files {
        let file = path.join(file);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(file, content)?;
    }
    run_as_demo(path, &["add", "--all"])?;
    run_as_demo(path, &["commit", "--quiet", "-m", message])
}

/// `git args` in the repository at `path`, as the demo's author.
fn run_as_demo(path: &Path, args: &[&str]) -> std::io::Result<()> {
    let status = git_writing(path)
        .args([
            "-c",
            "user.name=Platform demo",
            "-c",
            "user.email=demo@platform.invalid",
        ])
        .args(args)
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "git {} failed",
            args.join(" ")
        )))
    }
}

/// Starts the branch `name` at the current commit of the repository at `path` (HEAD stays).
pub fn create_branch(path: &Path, name: &str) -> std::io::Result<()> {
    run_as_demo(path, &["branch", name])
}

/// Deletes the branch `name` of the repository at `path`, merged or not.
pub fn delete_branch(path: &Path, name: &str) -> std::io::Result<()> {
    run_as_demo(path, &["branch", "--quiet", "-D", name])
}

/// Tags the current commit of the repository at `path`.
pub fn tag(path: &Path, name: &str) -> std::io::Result<()> {
    run_as_demo(path, &["tag", name])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_repositories_under_the_allowed_folders_are_read() {
        assert_eq!(
            local_path("file:///srv/repo"),
            Some(PathBuf::from("/srv/repo"))
        );
        assert_eq!(local_path("/srv/repo"), Some(PathBuf::from("/srv/repo")));
        assert_eq!(local_path("https://git.example.com/a.git"), None);
        // The allowed folder is itself inside a repository, as `data/` is in a checkout.
        let outer = tempfile::TempDir::new().unwrap();
        create_repository(outer.path(), &[("outer", &[("secret.txt", "1")])]).unwrap();
        let allowed = outer.path().join("data");
        let elsewhere = tempfile::TempDir::new().unwrap();
        let inside = allowed.join("web");
        create_repository(&inside, &[("web", &[("a.txt", "1")])]).unwrap();
        let plain = allowed.join("plain");
        std::fs::create_dir(&plain).unwrap();
        let repositories = Repositories::new(vec![allowed.clone()]);
        let remote = repositories
            .local("https://git.example.com/a.git")
            .unwrap_err();
        assert!(remote.to_string().contains("cannot reach"));
        let found = repositories
            .local(&format!("file://{}", inside.display()))
            .unwrap();
        assert_eq!(found.folder(), std::fs::canonicalize(&inside).unwrap());
        // Outside, missing, reached through `..` or a link, or a folder that is not itself a
        // repository (git would read the one around it): the same refusal.
        let link = allowed.join("link");
        std::os::unix::fs::symlink(elsewhere.path(), &link).unwrap();
        let outside = [
            elsewhere.path().display().to_string(),
            format!("{}/missing", allowed.display()),
            format!("{}/web/../..", allowed.display()),
            link.display().to_string(),
            "/etc".to_string(),
            plain.display().to_string(),
            format!("file://{}", allowed.display()),
        ];
        let messages: Vec<String> = outside
            .iter()
            .map(|url| {
                let refused = repositories.local(url).unwrap_err();
                assert!(matches!(refused, GitError::Refused(_)), "{url}");
                refused.to_string().replace(url.as_str(), "URL")
            })
            .collect();
        assert!(
            messages.iter().all(|message| *message == messages[0]),
            "{messages:?}"
        );
        // Listed: the repositories directly under the folder, not the folder without one.
        let listed: Vec<String> = repositories
            .listed()
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(listed, ["web"]);
        // A root path never leaves the repository, a branch is never an expression.
        assert!(directories(&found, None, Some("/..")).is_err());
        assert!(directories(&found, Some("main^{/web}"), None).is_err());
        assert_eq!(
            directories(&found, None, None).unwrap(),
            Vec::<String>::new()
        );
    }

    /// A repository read as the routes read it: located under its folder.
    fn read(folder: &Path) -> Repository {
        Repository::at(folder.canonicalize().unwrap()).unwrap()
    }

    #[test]
    fn a_file_is_refused_by_its_size_before_it_is_read() {
        let dir = tempfile::TempDir::new().unwrap();
        let large = "#".repeat(crate::untrusted::TERRAFORM_FILE.bytes + 1);
        create_repository(
            dir.path(),
            &[(
                "module",
                &[
                    ("infra/main.tf", "variable \"a\" {}\n"),
                    ("big/main.tf", &large),
                ],
            )],
        )
        .unwrap();
        let repository = read(dir.path());
        let module = terraform_files(&repository, None, Some("/infra")).unwrap();
        assert_eq!(module[0].0, "infra/main.tf");
        let refused = terraform_files(&repository, None, Some("/big")).unwrap_err();
        let said = refused.to_string();
        assert!(matches!(refused, GitError::TooLarge(_)), "{said}");
        assert!(
            said.contains("big/main.tf") && said.contains("1.0 MiB"),
            "{said}"
        );
        let limits = &crate::untrusted::REPOSITORY_FILE;
        assert!(file_at(&repository, None, Some("/big"), "main.tf", limits).is_err());
        assert!(file_at(&repository, None, None, "../x", limits).is_err());
        assert_eq!(
            file_at(&repository, None, None, "none", limits).unwrap(),
            None
        );
        // A command printing more than its bound is stopped and refused, not read whole.
        let printed = run_bounded(
            git(&repository).args(["cat-file", "blob", "HEAD:big/main.tf"]),
            1024,
        );
        assert!(matches!(printed, Err(GitError::TooLarge(_))));
    }

    #[test]
    fn commits_come_newest_first_with_their_tags() {
        let dir = tempfile::TempDir::new().unwrap();
        create_repository(
            dir.path(),
            &[("first", &[("a.txt", "1")]), ("second", &[("a.txt", "2")])],
        )
        .unwrap();
        tag(dir.path(), "v1.0").unwrap();
        let path = &read(dir.path());
        let all = commits(
            path,
            &CommitQuery {
                branch: Some("main"),
                start_after: None,
                only: None,
            },
        )
        .unwrap();
        let messages: Vec<_> = all.iter().map(|c| c.message.as_str()).collect();
        assert_eq!(messages, ["second", "first"]);
        assert_eq!(all[0].tag, "v1.0");
        assert_eq!(all[1].tag, "");
        assert_eq!(all[0].author_name, "Platform demo");
        let older = commits(
            path,
            &CommitQuery {
                branch: None,
                start_after: Some(&all[0].git_commit_id),
                only: None,
            },
        )
        .unwrap();
        assert_eq!(older.len(), 1);
        assert_eq!(older[0].message, "first");
        let one = commits(
            path,
            &CommitQuery {
                branch: None,
                start_after: None,
                only: Some(&all[1].git_commit_id),
            },
        )
        .unwrap();
        assert_eq!(one[0].git_commit_id, all[1].git_commit_id);
        assert!(matches!(
            commits(
                path,
                &CommitQuery {
                    branch: None,
                    start_after: None,
                    only: Some("deadbeef")
                }
            ),
            Err(GitError::Failed(_))
        ));
    }

    #[test]
    fn each_commit_comes_with_the_paths_it_changed() {
        let dir = tempfile::TempDir::new().unwrap();
        create_repository(
            dir.path(),
            &[
                ("first", &[("a.txt", "1"), ("docs/b.md", "1")]),
                ("second", &[("docs/b.md", "2")]),
                ("third", &[("a.txt", "3"), ("web/c.js", "3")]),
            ],
        )
        .unwrap();
        let repository = read(dir.path());
        let listed = commits_with_changes(&repository, Some("main"), 10).unwrap();
        let seen: Vec<(&str, Vec<&str>)> = listed
            .iter()
            .map(|c| {
                let paths = c.changed_paths.iter().map(String::as_str).collect();
                (c.commit.message.as_str(), paths)
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("third", vec!["a.txt", "web/c.js"]),
                ("second", vec!["docs/b.md"]),
                ("first", vec!["a.txt", "docs/b.md"]),
            ]
        );
        let (newest, oldest) = (&listed[0].commit, &listed[2].commit);
        assert_eq!(
            changed_paths(&repository, &oldest.git_commit_id, &newest.git_commit_id).unwrap(),
            ["a.txt", "docs/b.md", "web/c.js"]
        );
        assert!(changed_paths(&repository, "--output=x", &newest.git_commit_id).is_err());
    }
}
