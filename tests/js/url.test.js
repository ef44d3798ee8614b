// The URL's query as the labs read and write it (templates/runtime/page/url.js), in node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { paramsFromQuery, queryFor, URL_TEXT_LIMIT, FOLDS_PARAM, NUMBERS_PARAM, numbersFromQuery }
  from "../../templates/runtime/page/url.js";

test("the controls a query sets are read as written, the others and unknown names left out", () => {
  assert.deepEqual(paramsFromQuery("?vento=0,5&x=abc&altro=1", ["vento", "x", "y"]), { vento: "0,5", x: "abc" });
  assert.equal(paramsFromQuery("?altro=1", ["vento"]), null);
  assert.equal(paramsFromQuery("", ["vento"]), null);
  assert.deepEqual(paramsFromQuery("?testo=caff%C3%A8+e+t%C3%A8", ["testo"]), { testo: "caffè e tè" });
});

test("a control at its default or a text too long for a link is left out; the rest of the query stays", () => {
  const controls = [{ name: "vento", value: "3", fallback: "1" }, { name: "passo", value: "0", fallback: "0" },
                    { name: "corpus", value: "a".repeat(URL_TEXT_LIMIT + 1), fallback: "" }];
  assert.equal(queryFor("?passo=4&corpus=old&utm=x", controls, ""), "?utm=x&vento=3");
  assert.equal(queryFor("", [{ name: "vento", value: "1", fallback: "1" }], ""), "");
});

test("the open folds are said in one parameter, dropped when none is open", () => {
  assert.equal(queryFor("", [], "embedding,matrice"), `?${FOLDS_PARAM}=embedding%2Cmatrice`);
  assert.equal(queryFor(`?${FOLDS_PARAM}=embedding`, [], ""), "");
});

test("«Mostra i numeri» open is said in one parameter, read back; the picture (the default) is said by none", () => {
  assert.equal(queryFor("?vento=3", [], "", true), `?vento=3&${NUMBERS_PARAM}=1`);
  assert.equal(queryFor(`?${NUMBERS_PARAM}=1&vento=3`, [], "", false), "?vento=3");
  assert.equal(queryFor(`?${NUMBERS_PARAM}=1`, [], ""), "");
  assert.equal(numbersFromQuery(queryFor("", [], "embedding", true)), true);
  assert.equal(numbersFromQuery("?vento=3"), undefined);
  assert.equal(numbersFromQuery(`?${NUMBERS_PARAM}=0`), undefined);
  assert.deepEqual(paramsFromQuery(`?${NUMBERS_PARAM}=1&vento=3`, ["vento"]), { vento: "3" }); // not a control
});

test("what queryFor writes, paramsFromQuery reads back", () => {
  const controls = [{ name: "frase", value: "l'ombrello & il sole?", fallback: "" }, { name: "t", value: "0.5", fallback: "1" }];
  assert.deepEqual(paramsFromQuery(queryFor("", controls, ""), ["frase", "t"]), { frase: "l'ombrello & il sole?", t: "0.5" });
});
