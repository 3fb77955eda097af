// Every scene view the page has: one import a view. A new scene's view is a module in this folder that ends
// with registerView("<scene name>", ItsView), and a line here importing it.

import "./arm.js";
import "./tentacles.js";
import "./spider.js";
import "./race.js";
import "./robot.js";
import "./crowd.js";
import "./steps.js";
import "./playground.js";
import "./humanoid.js";

export { viewFor } from "./registry.js";
