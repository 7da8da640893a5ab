// TypeDoc plugin for the merchant docs site (`npm run docs`). It keeps the site's structure in one
// place instead of a tag on every export:
// - each export's category comes from the folder that defines it, so a new export lands in the
//   right group of the navigation without anyone remembering a `@category` tag (an explicit tag
//   in the source still wins);
// - members of a class or interface keep their source order (resolve, dispatch, verify; apiKey and
//   baseUrl first), while a module's exports stay alphabetical within their category;
// - a method's page shows the shape its promise resolves to, not only the type's name;
// - the guides appear in the order a merchant reads them, under their headings;
// - the landing page stops at the README's contributor material;
// - pages show their content at once: the default theme hides the body until its script runs;
// - search ranks first the member a merchant means by their words (SEARCH_ANSWERS), and a guide
//   opened from search lands on the section that holds the words (typedoc-search.js).
import { Comment, CommentTag, Converter, JSX, PageEvent, ReflectionKind } from 'typedoc';

/** First matching prefix of the defining file wins. */
const CATEGORY_BY_SOURCE = [
  ['src/resources/', 'Resources'],
  ['src/errors', 'Errors'],
  ['src/money', 'Money'],
  ['src/webhooks', 'Webhooks'],
  ['src/testing', 'Testing'],
  ['src/types', 'Types'],
  ['src/client', 'Client'],
  ['src/core/', 'Client'],
];

/** Guides by file name, in reading order; guides not listed follow, alphabetically. */
const GUIDE_ORDER = [
  'getting-started.md',
  'errors.md',
  'webhooks.md',
  'testing.md',
  'sandbox.md',
  'reliability.md',
  'performance.md',
  'observability.md',
  'reconciliation.md',
  'agents.md',
];

/** How much a guide outranks an API member whose name also matches a search. */
const GUIDE_SEARCH_BOOST = 20;

/**
 * The members a merchant means when they search in their own words ("refund", "verify webhook",
 * "next.js"): each outranks the guides that also use those words, which stay in the results.
 * Keys are the member's path below its entry module.
 */
const SEARCH_ANSWERS = new Map([
  ['Refunds', 4000],
  ['Refunds.create', 3000],
  ['verifyWebhook', 4000],
  ['createWebhookHandler', 4000],
]);

/** The README marks where merchant material ends and contributor material begins. */
const LANDING_END_MARKER = '<!-- end of the docs site landing page -->';

const HIDE_UNTIL_SCRIPT =
  'document.body.style.display="none";setTimeout(() => window.app?app.showPage():document.body.style.removeProperty("display"),500)';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const project = context.project;
    categorize(project);
    keepMemberOrder(project);
    orderGuides(project);
    nameGuides(project);
    endLandingPage(project);
    boostAnswers(project);
  });

  app.renderer.hooks.on('comment.beforeTags', (context, _comment, reflection) => {
    const data = resolvedData(reflection);
    if (!data) return JSX.createElement(JSX.Fragment, null);
    return JSX.createElement(
      JSX.Fragment,
      null,
      JSX.createElement('h4', { class: 'tsd-returns-title' }, 'Resolves to ', context.type(data)),
      context.typeDetails(reflection, data, false),
    );
  });

  app.renderer.on(PageEvent.END, (page) => {
    if (!page.contents) return;
    if (!page.contents.includes(HIDE_UNTIL_SCRIPT)) {
      app.logger.warn(`typedoc-plugin: the theme no longer hides ${page.url}; drop this step`);
      return;
    }
    page.contents = page.contents.replace(HIDE_UNTIL_SCRIPT, '');
  });
}

/** @param {import('typedoc').ProjectReflection} project */
function categorize(project) {
  const exported = ReflectionKind.Class | ReflectionKind.Interface | ReflectionKind.TypeAlias;
  const kinds = exported | ReflectionKind.Function | ReflectionKind.Variable | ReflectionKind.Reference;
  for (const reflection of project.getReflectionsByKind(kinds)) {
    if (!reflection.parent?.kindOf(ReflectionKind.Module)) continue;
    const target = reflection.kindOf(ReflectionKind.Reference)
      ? reflection.tryGetTargetReflectionDeep()
      : reflection;
    const file = target ? project.getSymbolIdFromReflection(target)?.packagePath : undefined;
    const category = file && CATEGORY_BY_SOURCE.find(([prefix]) => file.startsWith(prefix))?.[1];
    if (!category) {
      project.application?.logger.warn(
        `typedoc-plugin: no category for ${reflection.getFullName()} (${file})`,
      );
      continue;
    }
    if (hasCategory(reflection)) continue;
    reflection.comment ??= new Comment();
    reflection.comment.blockTags.push(new CommentTag('@category', [{ kind: 'text', text: category }]));
  }
}

/**
 * A guide is listed under its first heading ("Testing with the sandbox"), not its file name.
 * @param {import('typedoc').ProjectReflection} project
 */
function nameGuides(project) {
  for (const doc of project.documents ?? []) {
    const heading = /^# (.+)$/m.exec(doc.content.map((part) => part.text).join(''));
    if (heading?.[1] && !('title' in doc.frontmatter)) doc.name = heading[1].replaceAll('`', '');
    // Merchants search in their own words ("idempotency", "express"), and the guides are where
    // those words are explained: rank a guide above the many members whose names also match.
    doc.relevanceBoost = GUIDE_SEARCH_BOOST;
  }
}

/** @param {import('typedoc').ProjectReflection} project */
function boostAnswers(project) {
  const found = new Set();
  for (const reflection of Object.values(project.reflections)) {
    const path = [];
    for (let r = reflection; r && !r.kindOf(ReflectionKind.SomeModule | ReflectionKind.Project); r = r.parent)
      path.unshift(r.name);
    const boost = SEARCH_ANSWERS.get(path.join('.'));
    if (boost === undefined || !('relevanceBoost' in reflection || reflection.isDeclaration())) continue;
    reflection.relevanceBoost = boost;
    found.add(path.join('.'));
  }
  for (const name of SEARCH_ANSWERS.keys()) {
    if (!found.has(name)) project.application?.logger.warn(`typedoc-plugin: no ${name} to rank in search`);
  }
}

/**
 * Runs before {@link nameGuides}: a document is still named after its file here.
 * @param {import('typedoc').ProjectReflection} project
 */
function orderGuides(project) {
  const rank = (reflection) => {
    if (!reflection.isDocument()) return GUIDE_ORDER.length + 1;
    const index = GUIDE_ORDER.indexOf(`${reflection.name}.md`);
    return index === -1 ? GUIDE_ORDER.length : index;
  };
  const byRank = (a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name);
  project.documents?.sort(byRank);
  project.childrenIncludingDocuments?.sort(byRank);
}

/** @param {import('typedoc').ProjectReflection} project */
function keepMemberOrder(project) {
  for (const reflection of project.getReflectionsByKind(ReflectionKind.ClassOrInterface)) {
    reflection.comment ??= new Comment();
    if (reflection.comment.getTag('@sortStrategy')) continue;
    const tag = new CommentTag('@sortStrategy', [{ kind: 'text', text: 'kind,instance-first,source-order' }]);
    tag.skipRendering = true;
    reflection.comment.blockTags.push(tag);
  }
}

/**
 * `T` of a method returning `APIPromise<T>`, when `T` is a documented shape tagged `@expand`.
 * @param {import('typedoc').Reflection} reflection
 */
function resolvedData(reflection) {
  if (!reflection.kindOf(ReflectionKind.CallSignature)) return undefined;
  const type = /** @type {import('typedoc').SignatureReflection} */ (reflection).type;
  if (type?.type !== 'reference' || type.name !== 'APIPromise') return undefined;
  const data = type.typeArguments?.[0];
  if (data?.type !== 'reference' || !data.reflection?.comment?.hasModifier('@expand')) return undefined;
  return data;
}

/** @param {import('typedoc').DeclarationReflection} reflection */
function hasCategory(reflection) {
  const comments = [reflection.comment, ...(reflection.signatures ?? []).map((s) => s.comment)];
  return comments.some((comment) => comment?.getTag('@category'));
}

/** @param {import('typedoc').ProjectReflection} project */
function endLandingPage(project) {
  const parts = project.readme;
  if (!parts) return;
  const at = parts.findIndex((part) => part.text.includes(LANDING_END_MARKER));
  if (at === -1) {
    throw new Error(`typedoc-plugin: README.md lacks the marker ${LANDING_END_MARKER}`);
  }
  const kept = parts.slice(0, at);
  const before = parts[at].text.split(LANDING_END_MARKER)[0];
  if (before) kept.push({ ...parts[at], text: before });
  project.readme = kept;
}
