// «Il codice Python»'s listing: the lab's functions, highlighted by the build on a page of their own beside the
// lab's (sitebuild/secure.py split_listing), the larger part of a lab page's bytes. It is fetched the first time
// it is wanted: the panel opened, «Modifica», a «Prova», a shared link's code, an exercise's solution.
const loads = new WeakMap(); // listing element → the promise of its text

// The text «Modifica» starts from: each shown function's source after a line naming its file, as
// labs.kit.listing.editable_text writes it.
function shownText(listing) {
  return [...listing.querySelectorAll("[data-lab-code-file]")]
    .map((part) => `# ── da ${part.dataset.labCodeFile}\n${part.querySelector("pre").textContent}`)
    .join("\n\n");
}

async function fetchListing(listing) {
  const response = await fetch(new URL(listing.dataset.src, document.baseURI));
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const found = page.querySelector("[data-lab-code-listing]");
  if (!found) throw new Error("elenco assente");
  listing.replaceChildren(...found.childNodes);
  delete listing.dataset.src;
  return shownText(listing);
}

/** The text of a code panel's listing, fetched and shown in the panel if it was not yet. A failure rejects with an
 *  Italian line (the listing keeps its link to the listing's page) and is tried again at the next call. */
export function loadListing(panel) {
  const listing = panel.querySelector("[data-lab-code-listing]");
  if (!listing.dataset.src) return Promise.resolve(shownText(listing));
  if (!loads.has(listing)) {
    const wait = document.createElement("span");
    wait.textContent = "Carico il codice… ";
    listing.querySelector(".lab-code-wait")?.prepend(wait);
    const load = fetchListing(listing).catch((error) => {
      loads.delete(listing);
      wait.remove();
      throw new Error(`Non riesco a scaricare il codice (${error.message}): riprova, o aprilo dal link.`);
    });
    loads.set(listing, load);
  }
  return loads.get(listing);
}
