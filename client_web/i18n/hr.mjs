import en from "./en.mjs";
export default { ...en };
